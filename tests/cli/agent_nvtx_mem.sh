#!/usr/bin/env bash
# agent_nvtx_mem.sh: the agent as the NVTX injection library of memcheck, without a GPU. A C
# program built with the toolkit's header-only NVTX v3 calls the memory API (a sub-allocator heap
# over a host buffer, regions registered, resized, unregistered by pointer and by handle, a reset,
# the heap unregistered) and, in between, every call with bad descriptors (NULL, a wrong
# extCompatID, a short structSize, a short element size, a count whose bytes overflow, a layout
# heap, an unknown memory type, unknown handles). Natively the heap handle is NULL; under
# `cucheck memcheck` (which names the agent in NVTX_INJECTION64_PATH) every call returns, heap
# and permission handles are non-NULL and unique, region handles are the regions' pointers, and
# the recording holds exactly the valid calls as suballoc events (the region registrations with
# their host stack). A user's own NVTX tool wins: the report's notes say the annotations were not
# read. Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK="$1"
BINARY_DIR="$3"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
[ -f "$AGENT" ] || { echo "skip: $AGENT not built"; exit 77; }
CC="${CC:-cc}"
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
NVTX="$(sed -n 's/^CUCHECK_NVTX3_INCLUDE_DIR:PATH=//p' "$BINARY_DIR/CMakeCache.txt")"
[ -f "$NVTX/nvtx3/nvToolsExtMem.h" ] || { echo "FAIL: no NVTX headers in CMakeCache.txt"; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/calls.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <nvtx3/nvToolsExtMem.h>

static unsigned char pool[4096];

static nvtxMemHeapDesc_t heap_desc(nvtxMemVirtualRangeDesc_t *r)
{
    nvtxMemHeapDesc_t d;
    memset(&d, 0, sizeof d);
    d.extCompatID = NVTX_EXT_COMPATID_MEM;
    d.structSize = sizeof d;
    d.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
    d.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    d.typeSpecificDescSize = sizeof *r;
    d.typeSpecificDesc = r;
    return d;
}

static nvtxMemRegionsRegisterBatch_t reg_batch(nvtxMemHeapHandle_t h, nvtxMemVirtualRangeDesc_t *r,
                                               size_t n, nvtxMemRegionHandle_t *out)
{
    nvtxMemRegionsRegisterBatch_t b;
    memset(&b, 0, sizeof b);
    b.extCompatID = NVTX_EXT_COMPATID_MEM;
    b.structSize = sizeof b;
    b.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    b.heap = h;
    b.regionCount = n;
    b.regionDescElementSize = sizeof *r;
    b.regionDescElements = r;
    b.regionHandleElementsOut = out;
    return b;
}

int main(void)
{
    nvtxDomainHandle_t dom = nvtxDomainCreateA("calls");
    nvtxMemVirtualRangeDesc_t whole = {sizeof pool, pool};
    nvtxMemHeapDesc_t hd = heap_desc(&whole);
    nvtxMemHeapHandle_t h = nvtxMemHeapRegister(dom, &hd);
    printf("heap %s\n", h == NULL ? "null" : "set");
    if (h == NULL) {
        return 0; /* natively: no tool */
    }
    /* bad heap descriptors: handles all the same, nothing tracked */
    nvtxMemHeapHandle_t bad[6];
    nvtxMemVirtualRangeDesc_t other = {64, pool + 8192};
    nvtxMemHeapDesc_t d = heap_desc(&other);
    bad[0] = nvtxMemHeapRegister(dom, NULL);
    d.extCompatID = 0x7700;
    bad[1] = nvtxMemHeapRegister(dom, &d);
    d = heap_desc(&other);
    d.structSize = 4;
    bad[2] = nvtxMemHeapRegister(dom, &d);
    d = heap_desc(&other);
    d.usage = NVTX_MEM_HEAP_USAGE_TYPE_LAYOUT;
    bad[3] = nvtxMemHeapRegister(dom, &d);
    d = heap_desc(&other);
    d.type = 0x11; /* a CUDA array */
    bad[4] = nvtxMemHeapRegister(dom, &d);
    bad[5] = nvtxMemHeapRegister(dom, &hd); /* the same span again: overlaps */
    int unique = 1;
    for (int i = 0; i < 6; i++) {
        unique &= bad[i] != NULL && bad[i] != h;
        for (int j = 0; j < i; j++) {
            unique &= bad[i] != bad[j];
        }
        nvtxMemHeapReset(dom, bad[i]);
    }
    printf("bad heaps %s\n", unique ? "unique" : "NOT UNIQUE");
    nvtxMemPermissionsHandle_t p1 = nvtxMemPermissionsCreate(dom, 0);
    nvtxMemPermissionsHandle_t p2 = nvtxMemPermissionsCreate(dom, 0);
    printf("permissions %s\n", p1 != NULL && p2 != NULL && p1 != p2 ? "unique" : "NOT UNIQUE");
    nvtxMemPermissionsBind(dom, p1, NVTX_MEM_PERMISSIONS_BIND_SCOPE_CPU_THREAD, 0);
    nvtxMemPermissionsUnbind(dom, NVTX_MEM_PERMISSIONS_BIND_SCOPE_CPU_THREAD);
    nvtxMemPermissionsDestroy(dom, p2);

    /* two regions, handles out */
    nvtxMemVirtualRangeDesc_t r[2] = {{63, pool + 16}, {256, pool + 1024}};
    nvtxMemRegionHandle_t out[2] = {NULL, NULL};
    nvtxMemRegionsRegisterBatch_t b = reg_batch(h, r, 2, out);
    nvtxMemRegionsRegister(dom, &b);
    printf("region handles %s\n",
           (void *)out[0] == pool + 16 && (void *)out[1] == pool + 1024 ? "pointers" : "OTHER");
    /* bad region batches: none registers */
    nvtxMemVirtualRangeDesc_t far = {16, pool + 3000};
    nvtxMemRegionsRegister(dom, NULL);
    b = reg_batch(h, &far, 1, NULL);
    b.regionDescElementSize = 4;
    nvtxMemRegionsRegister(dom, &b);
    b = reg_batch(h, &far, SIZE_MAX / 8, NULL);
    nvtxMemRegionsRegister(dom, &b);
    b = reg_batch(h, &far, 1, NULL);
    b.structSize = 8;
    nvtxMemRegionsRegister(dom, &b);
    b = reg_batch(h, &far, 1, NULL);
    b.regionDescElements = NULL;
    nvtxMemRegionsRegister(dom, &b);
    b = reg_batch(bad[3], &far, 1, NULL); /* an untracked heap */
    nvtxMemRegionsRegister(dom, &b);
    b = reg_batch((nvtxMemHeapHandle_t)(uintptr_t)0x5151, &far, 1, NULL); /* never returned */
    nvtxMemRegionsRegister(dom, &b);
    nvtxMemVirtualRangeDesc_t outside = {64, pool + 4090}; /* leaves the heap */
    b = reg_batch(h, &outside, 1, NULL);
    nvtxMemRegionsRegister(dom, &b);

    /* resize the first to 64 bytes */
    nvtxMemVirtualRangeDesc_t grow = {64, pool + 16};
    nvtxMemRegionsResizeBatch_t rb;
    memset(&rb, 0, sizeof rb);
    rb.extCompatID = NVTX_EXT_COMPATID_MEM;
    rb.structSize = sizeof rb;
    rb.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    rb.regionDescCount = 1;
    rb.regionDescElementSize = sizeof grow;
    rb.regionDescElements = &grow;
    nvtxMemRegionsResize(dom, &rb);
    nvtxMemRegionsResize(dom, NULL);

    /* unregister the first by pointer, the second by handle, then an unknown one */
    nvtxMemRegionRef_t ref;
    nvtxMemRegionsUnregisterBatch_t ub;
    memset(&ub, 0, sizeof ub);
    ub.extCompatID = NVTX_EXT_COMPATID_MEM;
    ub.structSize = sizeof ub;
    ub.refType = NVTX_MEM_REGION_REF_TYPE_POINTER;
    ub.refCount = 1;
    ub.refElementSize = sizeof ref;
    ub.refElements = &ref;
    ref.pointer = pool + 16;
    nvtxMemRegionsUnregister(dom, &ub);
    ub.refType = NVTX_MEM_REGION_REF_TYPE_HANDLE;
    ref.handle = out[1];
    nvtxMemRegionsUnregister(dom, &ub);
    ref.pointer = pool + 2000;
    ub.refType = NVTX_MEM_REGION_REF_TYPE_POINTER;
    nvtxMemRegionsUnregister(dom, &ub);
    ub.refType = 9;
    nvtxMemRegionsUnregister(dom, &ub);
    nvtxMemRegionsUnregister(dom, NULL);

    /* one region again, reset, unregister */
    b = reg_batch(h, r, 1, NULL);
    nvtxMemRegionsRegister(dom, &b);
    nvtxMemHeapReset(dom, h);
    nvtxMemHeapUnregister(dom, h);
    nvtxMemHeapUnregister(dom, h); /* twice: nothing more */
    nvtxMemHeapUnregister(dom, NULL);
    printf("done\n");
    return 0;
}
C
"$CC" -O0 -g -I"$NVTX" -o "$tmp/calls" "$tmp/calls.c" -ldl || exit 1
fail=0
unset NVTX_INJECTION64_PATH CUCHECK_TOOL CUCHECK_OPTIONS CUCHECK_RECORD LD_PRELOAD
[ "$("$tmp/calls")" = "heap null" ] || { echo "FAIL: natively the heap handle is not NULL"; fail=1; }

"$CUCHECK" --record "$tmp/calls.cuevt" memcheck -- "$tmp/calls" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: memcheck exit $rc: $(cat "$tmp/err")"; fail=1; }
for line in "heap set" "bad heaps unique" "permissions unique" "region handles pointers" "done"; do
    grep -qx "$line" "$tmp/out" || { echo "FAIL: no '$line' in: $(cat "$tmp/out")"; fail=1; }
done
"$CUCHECK" dump "$tmp/calls.cuevt" >"$tmp/dump" 2>&1 || { echo "FAIL: dump"; fail=1; }
ops="$(sed -n 's/^suballoc .* op=\([a-z_]*\) .*/\1/p' "$tmp/dump" | tr '\n' ' ')"
want="heap_register region_register region_register region_resize region_unregister region_unregister region_register heap_reset heap_unregister "
[ "$ops" = "$want" ] || { echo "FAIL: suballoc events '$ops', expected '$want'"; fail=1; }
if grep '^suballoc .*op=region_register' "$tmp/dump" | grep -vq 'callsite='; then
    echo "FAIL: a region registration without its host stack"; fail=1
fi
grep -q '^suballoc .*op=region_register .*size=63' "$tmp/dump" ||
    { echo "FAIL: no 63-byte region: $(grep '^suballoc' "$tmp/dump")"; fail=1; }

# The user's own NVTX tool (here a library without NVTX entry points) wins, and says so.
echo 'int other_tool;' > "$tmp/other.c"
"$CC" -shared -fPIC -o "$tmp/other.so" "$tmp/other.c" || exit 1
NVTX_INJECTION64_PATH="$tmp/other.so" \
    "$CUCHECK" memcheck -- "$tmp/calls" >"$tmp/out2" 2>&1
grep -q "NVTX_INJECTION64_PATH names another NVTX tool" "$tmp/out2" ||
    { echo "FAIL: no note for the user's NVTX tool: $(cat "$tmp/out2")"; fail=1; }
grep -qx "heap null" "$tmp/out2" || { echo "FAIL: the user's tool was replaced"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
