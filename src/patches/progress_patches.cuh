// The run tool's device patches (included at the end of cucheck_patches.cu; layout in
// patch_records.h, "run"): progress marks of each grid in pinned host memory, where the agent
// reads them after a sticky error. At block entry the first warp to see the grid's slot not yet
// claimed marks the grid started (a plain read first, so most warps do no atomic); at each
// thread's exit one lane of the exiting threads of a warp adds their number to the grid's
// exited-thread count, and the warp that completes it resets the count and marks the grid
// finished. Never stops the kernel.

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
    unsigned long long total = (unsigned long long)gridDim.x * gridDim.y * gridDim.z *
                               ((unsigned long long)blockDim.x * blockDim.y * blockDim.z);
    unsigned long long slot = grid & h->mask;
    unsigned long long n = (unsigned long long)__popc(active);
    unsigned long long before = atomicAdd(&h->counts[slot], n);
    if (before + n == total) {
        atomicExch(&h->counts[slot], 0ull); // every thread counted: free the slot for a later grid
        // No fence: the grid's completion makes its writes visible, and a grid that did not
        // complete wrote no done mark.
        *(volatile unsigned long long *)&h->done[slot] = grid;
    }
    return SANITIZER_PATCH_SUCCESS;
}
