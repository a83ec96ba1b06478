/* Sub-allocators (instr_suballoc.h): the NVTX memory API's and PyTorch's heaps and regions kept
 * in core's book (core/suballoc_book.h) over the manager's allocation table, under the manager's
 * lock, with one CC_EV_SUBALLOC event per change (emitted under the lock, so that the events of
 * two threads come in the order their changes were made; a queued change's event goes out at
 * its call, in the order its source makes them). The table's own add and remove ask
 * the book first (instr_state.c): an allocation made inside a heap stays out of the table, and
 * freeing a heap's allocation ends the heap. Queued region changes (core/region_queue.h, under
 * a lock of their own taken after the manager's) reach the book when a reader of the table
 * syncs, when another change comes, or when the queue is full. The host stack of a call is
 * taken before the lock (it may emit the stack's definition). Works before CUDA is initialized:
 * the table is plain host memory, and an event before the agent's outputs open is dropped as
 * any other. */
#include <stdatomic.h>
#include <pthread.h>
#include "agent/core/agent.h"
#include "agent/core/self_time.h"
#include "agent/instr/instr_internal.h"
#include "agent/instr/instr_suballoc.h"
#include "core/region_queue.h"
#include "core/suballoc_book.h"

_Static_assert((uint32_t)CC_SUBALLOC_NVTX == CC_SUBALLOC_SRC_NVTX &&
               (uint32_t)CC_SUBALLOC_TORCH == CC_SUBALLOC_SRC_TORCH,
               "the interface's sources are the event's");

static void table_insert(void *ctx, uint64_t base, uint64_t end)
{
    (void)ctx;
    cc_instr_table_insert(base, end, 0);
}

static void table_erase(void *ctx, uint64_t base)
{
    (void)ctx;
    cc_instr_table_erase(base);
}

static void table_take(void *ctx, uint64_t lo, uint64_t hi,
                       void (*each)(void *arg, uint64_t base, uint64_t end), void *arg)
{
    (void)ctx;
    cc_instr_table_take(lo, hi, each, arg);
}

static cc_sa_book cc_sa_g;        /* guarded by cc_instr_g.lock */
static int cc_sa_ready;
static atomic_int cc_sa_heaps;    /* heaps ever registered: the table's hooks skip the book
                                   * until the first */

/* Queued region changes: a training step's tensor blocks mostly live between two reads of the
 * table, so most pairs cancel in the queue. The size bounds the work one sync does, and counts
 * only changes still to apply, so that pairs which cancelled never force a sync: a launch-bound
 * model's steady state (2,700 tensor changes a step on the H200's tiny_kernels_step, no checked
 * launch) applies only the changes still waiting when 4,096 have piled up. */
#define CC_SA_QUEUE_MAX 4096
static pthread_mutex_t cc_sa_queue_lock = PTHREAD_MUTEX_INITIALIZER; /* after cc_instr_g.lock */
static cc_region_queue cc_sa_queue = {.max = CC_SA_QUEUE_MAX};
static atomic_size_t cc_sa_queued; /* changes waiting: a sync with none skips the lock */
static int cc_sa_syncing;          /* guarded by cc_instr_g.lock: the book's own table calls
                                    * inside a sync do not sync again */

static void emit(uint32_t op, uint32_t source, uint64_t heap, uint64_t address, uint64_t size,
                 uint64_t callsite)
{
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_SUBALLOC);
    ev.u.suballoc.op = op;
    ev.u.suballoc.source = source;
    ev.u.suballoc.heap = heap;
    ev.u.suballoc.address = address;
    ev.u.suballoc.size = size;
    ev.u.suballoc.callsite = callsite;
    cc_agent_emit(&ev);
}

/* The book ended a heap on its own (its allocation was freed, or an allocation overlapped it). */
static void heap_dropped(void *arg, const cc_sa_heap *h)
{
    (void)arg;
    emit(CC_SUBALLOC_OP_HEAP_UNREGISTER, h->source, h->id, h->base, 0, 0);
}

/* With the lock held. */
static cc_sa_book *book(void)
{
    if (!cc_sa_ready) {
        cc_sa_table t = {NULL, table_insert, table_erase, table_take};
        cc_sa_book_init(&cc_sa_g, &t);
        cc_sa_g.heap_dropped = heap_dropped;
        cc_sa_ready = 1;
    }
    return &cc_sa_g;
}

static void apply_queued(void *arg, const cc_region_change *c)
{
    (void)arg;
    if (c->size != 0) {
        cc_sa_region_register(book(), c->heap, c->base, c->size);
    } else {
        uint64_t heap = 0, size = 0;
        cc_sa_region_unregister(book(), c->base, &heap, &size);
    }
}

void cc_instr_suballoc_sync(void)
{
    if (atomic_load_explicit(&cc_sa_queued, memory_order_acquire) == 0 || cc_sa_syncing) {
        return;
    }
    cc_sa_syncing = 1;
    pthread_mutex_lock(&cc_sa_queue_lock);
    cc_region_queue_drain(&cc_sa_queue, apply_queued, NULL);
    atomic_store_explicit(&cc_sa_queued, 0, memory_order_relaxed);
    pthread_mutex_unlock(&cc_sa_queue_lock);
    cc_sa_syncing = 0;
}

/* Queue a change (size 0: an unregistration); a full queue is applied at once. */
static void queue_change(uint64_t heap, uint64_t base, uint64_t size)
{
    pthread_mutex_lock(&cc_sa_queue_lock);
    int rc = size != 0 ? cc_region_queue_register(&cc_sa_queue, heap, base, size)
                       : cc_region_queue_unregister(&cc_sa_queue, heap, base);
    atomic_store_explicit(&cc_sa_queued, cc_region_queue_count(&cc_sa_queue),
                          memory_order_release);
    pthread_mutex_unlock(&cc_sa_queue_lock);
    if (rc == 0) {
        return;
    }
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    if (rc < 0) { /* not queued (out of memory): applied now, after the queue */
        cc_region_change c = {heap, base, size};
        apply_queued(NULL, &c);
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
}

/* A queued change of a region (size 0: its unregistration): its event now, the book later. */
static void region_queued(uint32_t op, cc_suballoc_source source, uint64_t heap, uint64_t base,
                          uint64_t size, uint64_t callsite)
{
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    emit(op, (uint32_t)source, heap, base, size, callsite);
    queue_change(heap, base, size);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_SUBALLOC, t0);
    }
}

void cc_suballoc_region_register_queued(cc_suballoc_source source, uint64_t heap, uint64_t base,
                                        uint64_t size, uint64_t callsite)
{
    if (heap != 0 && size != 0 && base + size > base) {
        region_queued(CC_SUBALLOC_OP_REGION_REGISTER, source, heap, base, size, callsite);
    }
}

void cc_suballoc_region_unregister_queued(cc_suballoc_source source, uint64_t heap,
                                          uint64_t base, uint64_t callsite)
{
    if (heap != 0) {
        region_queued(CC_SUBALLOC_OP_REGION_UNREGISTER, source, heap, base, 0, callsite);
    }
}

int cc_instr_suballoc_adding(uint64_t base, uint64_t end, int weak)
{
    return atomic_load_explicit(&cc_sa_heaps, memory_order_relaxed) != 0 &&
           cc_sa_table_adding(book(), base, end, weak);
}

int cc_instr_suballoc_removing(uint64_t base)
{
    return atomic_load_explicit(&cc_sa_heaps, memory_order_relaxed) != 0 &&
           cc_sa_table_removing(book(), base);
}

uint64_t cc_suballoc_heap_register(cc_suballoc_source source, uint64_t base, uint64_t size)
{
    uint64_t callsite = cc_agent_callsite();
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    atomic_fetch_add_explicit(&cc_sa_heaps, 1, memory_order_relaxed);
    uint64_t id = cc_sa_heap_register(book(), (uint32_t)source, base, size);
    if (id != 0) {
        emit(CC_SUBALLOC_OP_HEAP_REGISTER, (uint32_t)source, id, base, size, callsite);
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
    return id;
}

/* Unregister or reset (op) a heap the book knows, and say so. */
static void heap_change(uint64_t heap, uint32_t op)
{
    uint64_t callsite = cc_agent_callsite();
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    const cc_sa_heap *h = cc_sa_heap_find(book(), heap);
    if (h != NULL) {
        uint32_t source = h->source;
        uint64_t base = h->base;
        if (op == CC_SUBALLOC_OP_HEAP_RESET) {
            cc_sa_heap_reset(book(), heap);
        } else {
            cc_sa_heap_unregister(book(), heap);
        }
        emit(op, source, heap, base, 0, callsite);
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
}

void cc_suballoc_heap_unregister(uint64_t heap)
{
    heap_change(heap, CC_SUBALLOC_OP_HEAP_UNREGISTER);
}

void cc_suballoc_heap_reset(uint64_t heap)
{
    heap_change(heap, CC_SUBALLOC_OP_HEAP_RESET);
}

void cc_suballoc_region_register(uint64_t heap, uint64_t base, uint64_t size)
{
    uint64_t callsite = cc_agent_callsite();
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    const cc_sa_heap *h = cc_sa_heap_find(book(), heap);
    if (h != NULL) {
        uint32_t source = h->source;
        if (cc_sa_region_register(book(), heap, base, size) == 0) {
            emit(CC_SUBALLOC_OP_REGION_REGISTER, source, heap, base, size, callsite);
        }
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_SUBALLOC, t0);
    }
}

void cc_suballoc_region_resize(uint64_t base, uint64_t new_size)
{
    uint64_t callsite = cc_agent_callsite();
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    uint64_t heap = 0;
    if (cc_sa_region_resize(book(), base, new_size, &heap) == 0) {
        const cc_sa_heap *h = cc_sa_heap_find(book(), heap);
        emit(CC_SUBALLOC_OP_REGION_RESIZE, h != NULL ? h->source : 0, heap, base, new_size,
             callsite);
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
}

void cc_suballoc_region_unregister(uint64_t base)
{
    uint64_t callsite = cc_agent_callsite();
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    pthread_mutex_lock(&cc_instr_g.lock);
    cc_instr_suballoc_sync();
    uint64_t heap = 0, size = 0;
    if (cc_sa_region_unregister(book(), base, &heap, &size) == 0) {
        const cc_sa_heap *h = cc_sa_heap_find(book(), heap);
        emit(CC_SUBALLOC_OP_REGION_UNREGISTER, h != NULL ? h->source : 0, heap, base, 0,
             callsite);
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_SUBALLOC, t0);
    }
}

void cc_instr_suballoc_after_fork_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    cc_sa_queue_lock = fresh;
    cc_sa_syncing = 0;
}
