// The run tool's device patches (included at the end of cucheck_patches.cu; layout in
// patch_records.h, "run"): progress marks of each grid in pinned host memory, where the agent
// reads them after a sticky error. At block entry the first warp to see the grid's slot not yet
// claimed marks the grid started (a plain read first, so most warps do no atomic); at each
// thread's exit one lane of the exiting threads of a warp adds their number to its block's
// shard of the grid's exited-thread count; the warp that completes a shard counts it, and the
// one that completes the last shard marks the grid finished. Never stops the kernel.

// One lane of the threads running this patch together, and the grid's slot.
static __device__ __forceinline__ bool cc_progress_leader(unsigned int active)
{
    unsigned int lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane == (unsigned int)(__ffs(active) - 1);
}

static __device__ __forceinline__ unsigned long long cc_progress_grid(void)
{
    unsigned long long grid;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
    return grid;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_progress_block_enter(void *userdata, uint64_t pc)
{
    (void)pc;
    const cc_progress_hdr *h = (const cc_progress_hdr *)userdata;
    if (h == nullptr || !cc_progress_leader(__activemask())) {
        return SANITIZER_PATCH_SUCCESS; // no userdata: a launch the agent did not bind
    }
    unsigned long long grid = cc_progress_grid();
    unsigned long long slot = grid & h->mask;
    if (*(volatile unsigned long long *)&h->entered[slot] != grid &&
        atomicExch(&h->entered[slot], grid) != grid) {
        *(volatile unsigned long long *)&h->started[slot] = grid;
        if (h->flags & CC_PROGRESS_FLAG_FENCE_STARTED) {
            __threadfence_system();
        }
    }
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_progress_block_exit(void *userdata, uint64_t pc)
{
    (void)pc;
    const cc_progress_hdr *h = (const cc_progress_hdr *)userdata;
    unsigned int active = __activemask();
    if (h == nullptr || !cc_progress_leader(active)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    unsigned long long grid = cc_progress_grid();
    unsigned long long slot = grid & h->mask;
    unsigned long long blocks = (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    unsigned long long block = blockIdx.x + (unsigned long long)gridDim.x *
                                                (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    unsigned long long threads = (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
    unsigned long long shard = block % CC_PROGRESS_SHARDS;
    unsigned long long shards = blocks < CC_PROGRESS_SHARDS ? blocks : CC_PROGRESS_SHARDS;
    // threads of the blocks b with b % SHARDS == shard
    unsigned long long shard_total = ((blocks - 1 - shard) / CC_PROGRESS_SHARDS + 1) * threads;
    unsigned long long stride = h->mask + 1;
    unsigned long long n = (unsigned long long)__popc(active);
    unsigned long long *counter = &h->counts[shard * stride + slot];
    if (atomicAdd(counter, n) + n != shard_total) {
        return SANITIZER_PATCH_SUCCESS;
    }
    atomicExch(counter, 0ull); // the shard's threads all exited: free it for a later grid
    unsigned long long *complete = &h->counts[CC_PROGRESS_SHARDS * stride + slot];
    if (atomicAdd(complete, 1ull) + 1 == shards) {
        atomicExch(complete, 0ull);
        // No fence: the grid's completion makes its writes visible, and a grid that did not
        // complete wrote no done mark.
        *(volatile unsigned long long *)&h->done[slot] = grid;
    }
    return SANITIZER_PATCH_SUCCESS;
}
