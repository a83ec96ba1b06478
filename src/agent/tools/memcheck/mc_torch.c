/* Tensor bounds from PyTorch's caching allocator (mc_torch.h): libc10_cuda.so found among the
 * loaded objects, its symbols read from the file (symbols/torch_abi.h), the allocator object
 * checked to be a NativeCachingAllocator through its virtual table, a std::function in
 * libstdc++'s layout (symbols/torch_abi.h) handed to attachAllocatorTraceTracker, and the trace entries turned into
 * heaps and regions (symbols/torch_segments.h) once their layout was learned. Every read of the
 * program's memory is bounded: inside the library's loaded segments, else through
 * process_vm_readv, which fails instead of faulting. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "agent/tools/memcheck/mc_torch.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/core/self_time.h"
#include "agent/instr/instr_suballoc.h"
#include "symbols/torch_abi.h"
#include "symbols/torch_segments.h"

enum {
    TORCH_LOOKING = 0,   /* no tracker yet */
    TORCH_ATTACHED = 1,  /* attached, layout not learned: entries are not decoded */
    TORCH_LEARNED = 2,   /* entries become heaps and regions */
    TORCH_OFF = 3,       /* given up (or not PyTorch's caching allocator) */
};
static atomic_int torch_state;
static atomic_int torch_alloc_seen; /* a device allocation since the last look */

/* Device allocations seen lately, to learn the layout from a segment allocation. */
#define TORCH_RECENT 64
static struct {
    uint64_t base, size;
} torch_recent[TORCH_RECENT];
static unsigned torch_recent_next;
static pthread_mutex_t torch_recent_lock = PTHREAD_MUTEX_INITIALIZER;

/* libc10_cuda.so as loaded. */
#define TORCH_MAX_RANGES 16
static struct {
    int found;
    unsigned long long adds_seen; /* dl_iterate_phdr's load count at the last miss */
    char path[CC_AGENT_PATH_MAX];
    uint64_t bias;
    struct {
        uint64_t start, end;
        uint32_t flags;
    } range[TORCH_MAX_RANGES];
    int nrange;
    cc_torch_abi_syms syms;
} torch_lib;
static pthread_mutex_t torch_attach_lock = PTHREAD_MUTEX_INITIALIZER;

/* The tracker's state. */
static pthread_mutex_t torch_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_torch_trace_layout torch_layout;
static cc_torch_segments torch_segs;
static unsigned torch_unmatched; /* segment allocations before learning that matched nothing */
static unsigned torch_shown;     /* entries shown with CUCHECK_VERBOSE */

/* Said in the report's notes (the agent runs quiet under the CLI, so stderr would not reach
 * the user). */
static void torch_give_up(const char *why)
{
    atomic_store(&torch_state, TORCH_OFF);
    cc_agent_report_note("memcheck: PyTorch's tensor bounds were not read (%s): its caching "
                         "allocator's segments were checked as whole allocations", why);
}

/* ---- bounded reads ---- */

static int torch_in_lib(uint64_t addr, size_t n, uint32_t flags)
{
    for (int i = 0; i < torch_lib.nrange; i++) {
        if (addr >= torch_lib.range[i].start && addr < torch_lib.range[i].end &&
            n <= torch_lib.range[i].end - addr && (torch_lib.range[i].flags & flags) == flags) {
            return 1;
        }
    }
    return 0;
}

/* Bytes of the library's readable segment from addr to its end (0 outside). */
static uint64_t torch_lib_room(uint64_t addr)
{
    for (int i = 0; i < torch_lib.nrange; i++) {
        if (addr >= torch_lib.range[i].start && addr < torch_lib.range[i].end &&
            (torch_lib.range[i].flags & PF_R)) {
            return torch_lib.range[i].end - addr;
        }
    }
    return 0;
}

static int torch_read(void *dst, uint64_t addr, size_t n)
{
    if (torch_in_lib(addr, n, PF_R)) {
        memcpy(dst, (const void *)(uintptr_t)addr, n);
        return 0;
    }
    struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)addr, n};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

/* ---- finding the library ---- */

static int torch_count_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(unsigned long long *)arg = info->dlpi_adds;
    return 1;
}

static int torch_find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libc10_cuda.so", 14) != 0 || strlen(name) >= sizeof torch_lib.path) {
        return 0;
    }
    strcpy(torch_lib.path, name);
    torch_lib.bias = info->dlpi_addr;
    torch_lib.nrange = 0;
    for (int i = 0; i < info->dlpi_phnum && torch_lib.nrange < TORCH_MAX_RANGES; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD && p->p_memsz > 0) {
            torch_lib.range[torch_lib.nrange].start = info->dlpi_addr + p->p_vaddr;
            torch_lib.range[torch_lib.nrange].end = info->dlpi_addr + p->p_vaddr + p->p_memsz;
            torch_lib.range[torch_lib.nrange].flags = p->p_flags;
            torch_lib.nrange++;
        }
    }
    return 1;
}

/* The library's symbols, read from its file. 0, or -1 with err set. */
static int torch_read_symbols(char *err, size_t errlen)
{
    int fd = open(torch_lib.path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        snprintf(err, errlen, "cannot read libc10_cuda.so");
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    void *image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (image == MAP_FAILED) {
        snprintf(err, errlen, "cannot map libc10_cuda.so");
        return -1;
    }
    char why[160];
    int rc = cc_torch_abi_find_symbols(image, (size_t)st.st_size, &torch_lib.syms, why, sizeof why);
    munmap(image, (size_t)st.st_size);
    if (rc != 0) {
        snprintf(err, errlen, "libc10_cuda.so: %s", why);
        return -1;
    }
    const cc_torch_abi_syms *s = &torch_lib.syms;
    if (!torch_in_lib(s->attach + torch_lib.bias, 1, PF_X) ||
        !torch_in_lib(s->initialized + torch_lib.bias, 1, PF_X) ||
        !torch_in_lib(s->allocator + torch_lib.bias, 8, PF_R | PF_W)) {
        snprintf(err, errlen, "libc10_cuda.so: its symbols lie outside its loaded segments");
        return -1;
    }
    return 0;
}

/* ---- the tracker ---- */

static const cc_torch_sink torch_sink;

static void torch_show(const char *what, const cc_torch_trace *t)
{
    if (cc_agent_g.verbose && torch_shown < 12) {
        torch_shown++;
        cc_agent_note("torch: %s action %d device %d addr 0x%llx size %llu pool (%llu,%llu)", what,
                      t->action, t->device, (unsigned long long)t->addr,
                      (unsigned long long)t->size, (unsigned long long)t->pool[0],
                      (unsigned long long)t->pool[1]);
    }
}

/* Before the layout is known: a segment allocation that matches a recent device allocation
 * teaches it. Called with torch_lock held. */
static void torch_learn(const unsigned char *entry)
{
    uint64_t addr;
    memcpy(&addr, entry + 8, sizeof addr);
    uint64_t size = 0;
    pthread_mutex_lock(&torch_recent_lock);
    for (unsigned i = 0; i < TORCH_RECENT; i++) {
        if (torch_recent[i].base == addr && torch_recent[i].size) {
            size = torch_recent[i].size;
        }
    }
    pthread_mutex_unlock(&torch_recent_lock);
    if (size == 0) {
        if (++torch_unmatched >= 8) {
            torch_give_up("its segment allocations match no cudaMalloc seen");
        }
        return;
    }
    if (cc_torch_trace_learn(entry, addr, size, &torch_layout) != 0) {
        torch_give_up("its TraceEntry layout is not a known one");
        return;
    }
    cc_agent_note("torch: trace layout learned (size at %u, pool at %u) from segment 0x%llx "
                  "of %llu bytes", torch_layout.size_off, torch_layout.pool_off,
                  (unsigned long long)addr, (unsigned long long)size);
    atomic_store(&torch_state, TORCH_LEARNED);
}

static void torch_on_entry(const unsigned char *entry)
{
    int state = atomic_load_explicit(&torch_state, memory_order_acquire);
    if (state == TORCH_OFF || entry == NULL) {
        return;
    }
    int32_t action;
    memcpy(&action, entry, sizeof action);
    if (!cc_torch_segments_acts_on(action)) {
        return;
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    pthread_mutex_lock(&torch_lock);
    if (atomic_load(&torch_state) == TORCH_ATTACHED && action == CC_TORCH_SEGMENT_ALLOC) {
        torch_learn(entry);
    }
    if (atomic_load(&torch_state) == TORCH_LEARNED) {
        cc_torch_trace t;
        cc_torch_trace_decode(entry, &torch_layout, &t);
        torch_show("entry", &t);
        cc_torch_segments_apply(&torch_segs, &t, &torch_sink);
    }
    pthread_mutex_unlock(&torch_lock);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_TORCH, t0);
    }
}

/* ---- the sink: the manager's sub-allocator table ---- */

static uint64_t torch_heap_register(void *ctx, uint64_t base, uint64_t size)
{
    (void)ctx;
    return cc_suballoc_heap_register(CC_SUBALLOC_TORCH, base, size);
}
static void torch_heap_unregister(void *ctx, uint64_t heap)
{
    (void)ctx;
    cc_suballoc_heap_unregister(heap);
}
/* Blocks come and go a thousand times per training step: their changes are queued (most pairs
 * never reach the allocation table), and a free's host stack is taken only with
 * CUCHECK_MC_TORCH=free-stacks (a use-after-free report names the block's allocation, the
 * launch and the access either way). */
static int torch_free_stacks;
static void torch_region_register(void *ctx, uint64_t heap, uint64_t base, uint64_t size)
{
    (void)ctx;
    cc_suballoc_region_register_queued(CC_SUBALLOC_TORCH, heap, base, size, cc_agent_callsite());
}
static void torch_region_unregister(void *ctx, uint64_t heap, uint64_t base)
{
    (void)ctx;
    cc_suballoc_region_unregister_queued(CC_SUBALLOC_TORCH, heap, base,
                                         torch_free_stacks ? cc_agent_callsite() : 0);
}
static const cc_torch_sink torch_sink = {
    NULL, torch_heap_register, torch_heap_unregister, torch_region_register,
    torch_region_unregister,
};

/* ---- attaching ---- */

static void torch_summary(void)
{
    if (atomic_load(&torch_state) == TORCH_LEARNED) {
        cc_agent_note("torch: %llu segments as heaps, %llu in private pools, %llu tensor blocks as "
                      "regions, %llu blocks not tracked",
                      (unsigned long long)torch_segs.heaps,
                      (unsigned long long)torch_segs.private_segments,
                      (unsigned long long)torch_segs.regions,
                      (unsigned long long)torch_segs.untracked_blocks);
    }
}

static void torch_after_fork_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    torch_lock = fresh;
    torch_recent_lock = fresh;
    torch_attach_lock = fresh;
}

/* Attach if the library is loaded and its allocator initialized (called with torch_attach_lock
 * held, state LOOKING). */
static void torch_try_attach(void)
{
    char err[256];
    if (!torch_lib.found) {
        unsigned long long adds = 0;
        dl_iterate_phdr(torch_count_cb, &adds);
        if (adds == torch_lib.adds_seen) {
            return; /* nothing was loaded since the last look */
        }
        torch_lib.adds_seen = adds;
        if (!dl_iterate_phdr(torch_find_cb, NULL)) {
            return;
        }
        torch_lib.found = 1;
        if (torch_read_symbols(err, sizeof err) != 0) {
            torch_give_up(err);
            return;
        }
        cc_agent_note("torch: %s: attach 0x%llx initialized 0x%llx vtable 0x%llx (%llu bytes) "
                      "allocator 0x%llx, bias 0x%llx", torch_lib.path,
                      (unsigned long long)torch_lib.syms.attach,
                      (unsigned long long)torch_lib.syms.initialized,
                      (unsigned long long)torch_lib.syms.vtable,
                      (unsigned long long)torch_lib.syms.vtable_size,
                      (unsigned long long)torch_lib.syms.allocator,
                      (unsigned long long)torch_lib.bias);
    }
    const cc_torch_abi_syms *s = &torch_lib.syms;
    uint64_t bias = torch_lib.bias, object = 0, vptr = 0;
    if (torch_read(&object, s->allocator + bias, 8) != 0) {
        torch_give_up("its allocator pointer cannot be read");
        return;
    }
    if (object == 0) {
        return; /* not set yet */
    }
    if (torch_read(&vptr, object, 8) != 0) {
        torch_give_up("its allocator object cannot be read");
        return;
    }
    uint64_t room = torch_lib_room(vptr);
    if ((s->vtable && vptr != s->vtable + bias + 16) || room < 16) {
        /* Another backend (cudaMallocAsync: each tensor is its own allocation) or a pluggable
         * allocator. */
        atomic_store(&torch_state, TORCH_OFF);
        cc_agent_note("torch: the CUDA allocator is not PyTorch's caching allocator (vtable "
                      "0x%llx): its allocations are checked as they are",
                      (unsigned long long)vptr);
        return;
    }
    unsigned char slots[256 * 8];
    size_t n = sizeof slots;
    if (s->vtable_size > 16 && s->vtable_size - 16 < n) {
        n = (size_t)(s->vtable_size - 16);
    }
    if (room < n) {
        n = (size_t)room;
    }
    n &= ~(size_t)7;
    int attach_slot = -1, init_slot = -1;
    if (torch_read(slots, vptr, n) == 0) {
        attach_slot = cc_torch_vtable_slot(slots, n, s->attach + bias);
        init_slot = cc_torch_vtable_slot(slots, n, s->initialized + bias);
    }
    if (attach_slot < 0 || init_slot < 0) {
        atomic_store(&torch_state, TORCH_OFF);
        cc_agent_note("torch: the allocator's virtual table has no attachAllocatorTraceTracker or "
                      "initialized of NativeCachingAllocator: its allocations are checked as "
                      "they are");
        return;
    }
    bool (*initialized)(void *) = (bool (*)(void *))(uintptr_t)(s->initialized + bias);
    if (!initialized((void *)(uintptr_t)object)) {
        return; /* CUDA not initialized by PyTorch yet: look again at a later allocation */
    }
    void (*attach)(void *, cc_torch_tracker *) =
        (void (*)(void *, cc_torch_tracker *))(uintptr_t)(s->attach + bias);
    cc_torch_tracker fn;
    cc_torch_tracker_init(&fn, torch_on_entry, dlsym(RTLD_DEFAULT, "_ZTIv"));
    pthread_atfork(NULL, NULL, torch_after_fork_child);
    if (cc_agent_g.verbose) {
        atexit(torch_summary);
    }
    atomic_store(&torch_state, TORCH_ATTACHED);
    attach((void *)(uintptr_t)object, &fn); /* fn passed by invisible reference */
    cc_agent_note("torch: trace tracker attached (allocator 0x%llx, vtable slots %d and %d)",
                  (unsigned long long)object, attach_slot, init_slot);
}

/* CUCHECK_MC_TORCH=off: the tracker is never attached; =free-stacks: frees take host stacks
 * (read once, at the first allocation). */
static void torch_knob_read(void)
{
    const char *v = cc_knob_get(CC_KNOB_MC_TORCH);
    torch_free_stacks = v != NULL && strcmp(v, "free-stacks") == 0;
    if (v != NULL && strcmp(v, "off") == 0) {
        atomic_store(&torch_state, TORCH_OFF);
        cc_agent_report_note("memcheck: CUCHECK_MC_TORCH=off: PyTorch's tensor bounds are not "
                             "read; its caching allocator's segments are checked as whole "
                             "allocations");
    }
}

void cc_mc_torch_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    static pthread_once_t knob_once = PTHREAD_ONCE_INIT;
    if (cbid != SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC ||
        atomic_load_explicit(&torch_state, memory_order_relaxed) >= TORCH_LEARNED) {
        return;
    }
    pthread_once(&knob_once, torch_knob_read);
    if (atomic_load_explicit(&torch_state, memory_order_relaxed) == TORCH_OFF) {
        return;
    }
    const Sanitizer_ResourceMemoryData *m = (const Sanitizer_ResourceMemoryData *)data;
    pthread_mutex_lock(&torch_recent_lock);
    torch_recent[torch_recent_next].base = m->address;
    torch_recent[torch_recent_next].size = m->size;
    torch_recent_next = (torch_recent_next + 1) % TORCH_RECENT;
    pthread_mutex_unlock(&torch_recent_lock);
    atomic_store_explicit(&torch_alloc_seen, 1, memory_order_release);
}

void cc_mc_torch_at_api_exit(void)
{
    if (atomic_load_explicit(&torch_alloc_seen, memory_order_relaxed) == 0 ||
        atomic_load_explicit(&torch_state, memory_order_relaxed) != TORCH_LOOKING) {
        return;
    }
    if (pthread_mutex_trylock(&torch_attach_lock) != 0) {
        return; /* another thread is looking */
    }
    if (atomic_exchange(&torch_alloc_seen, 0) != 0 && atomic_load(&torch_state) == TORCH_LOOKING) {
        torch_try_attach();
    }
    pthread_mutex_unlock(&torch_attach_lock);
}
