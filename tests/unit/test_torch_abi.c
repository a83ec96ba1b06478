/* PyTorch's caching-allocator ABI (symbols/torch_abi.h) against a shared library g++ builds at
 * test time with the names, the virtual table and the TraceEntry of libc10_cuda.so (c10 2.11's
 * layout: the stream a void *): the symbols found in .symtab of a library built with hidden
 * visibility (they are in no .dynsym), the cudaMallocAsync backend's attachAllocatorTraceTracker
 * not taken for NativeCachingAllocator's, the virtual-table slots of attachAllocatorTraceTracker
 * and initialized found from the object's vtable pointer, the tracker (a std::function built in
 * C) attached by invisible reference to two devices (cloned, moved and destroyed by libstdc++)
 * and called with every entry, the layout learned from a segment allocation and refused for a
 * wrong address or size, and private pools read. Garbage input is refused without a crash.
 * Without g++ only the input checks run. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "test_files.h"
#include "symbols/torch_abi.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fake_c10_cuda =
    "#include <atomic>\n#include <cstdint>\n#include <functional>\n#include <memory>\n"
    "#include <string>\n#include <utility>\n#include <vector>\n"
    "namespace c10 {\n"
    "using DeviceIndex = int8_t;\n"
    "struct GatheredContext { virtual ~GatheredContext() = default; };\n"
    "namespace CachingDeviceAllocator {\n"
    "struct TraceEntry {\n"
    "  enum Action { ALLOC, FREE_REQUESTED, FREE_COMPLETED, SEGMENT_ALLOC, SEGMENT_FREE };\n"
    "  Action action_; DeviceIndex device_; size_t addr_;\n"
    "  std::shared_ptr<GatheredContext> context_; void *stream_{}; size_t size_;\n"
    "  std::pair<uint64_t, uint64_t> mempool_; uint64_t time_{};\n"
    "  std::string compile_context_; std::string user_metadata_;\n"
    "};\n"
    "using Tracker = std::function<void(const TraceEntry &)>;\n"
    "}\n"
    "namespace cuda { namespace CUDACachingAllocator {\n"
    "using c10::CachingDeviceAllocator::TraceEntry;\n"
    "using c10::CachingDeviceAllocator::Tracker;\n"
    "struct CUDAAllocator {\n"
    "  virtual ~CUDAAllocator() = default;\n"
    "  virtual void init(int n) = 0;\n"
    "  virtual bool initialized() = 0;\n"
    "  virtual void emptyCache() = 0;\n"
    "  virtual void attachAllocatorTraceTracker(Tracker t) = 0;\n"
    "};\n"
    "namespace Native {\n"
    "struct NativeCachingAllocator : CUDAAllocator {\n"
    "  std::vector<std::vector<Tracker>> devices;\n"
    "  void init(int n) override { devices.resize(n); }\n"
    "  bool initialized() override { return !devices.empty(); }\n"
    "  void emptyCache() override {}\n"
    "  void attachAllocatorTraceTracker(Tracker t) override {\n"
    "    for (auto &d : devices) d.push_back(t);\n"
    "  }\n"
    "};\n"
    "NativeCachingAllocator native;\n"
    "}\n"
    "namespace CudaMallocAsync {\n"
    "struct CudaMallocAsyncAllocator : CUDAAllocator {\n"
    "  void init(int) override {}\n"
    "  bool initialized() override { return true; }\n"
    "  void emptyCache() override {}\n"
    "  void attachAllocatorTraceTracker(Tracker) override {}\n"
    "};\n"
    "CudaMallocAsyncAllocator async_allocator;\n"
    "}\n"
    "std::atomic<CUDAAllocator *> allocator{&Native::native};\n"
    "}}}\n"
    "using namespace c10::cuda::CUDACachingAllocator;\n"
    "extern \"C\" __attribute__((visibility(\"default\"))) void fake_init(int n)\n"
    "{ allocator.load()->init(n); }\n"
    "extern \"C\" __attribute__((visibility(\"default\"))) void\n"
    "fake_emit(int device, int action, size_t addr, size_t size, uint64_t p0, uint64_t p1) {\n"
    "  TraceEntry e{}; e.action_ = (TraceEntry::Action)action; e.device_ = (c10::DeviceIndex)device;\n"
    "  e.addr_ = addr; e.size_ = size; e.stream_ = (void *)0x5157; e.mempool_ = {p0, p1};\n"
    "  e.context_ = std::make_shared<c10::GatheredContext>();\n"
    "  for (const auto &cb : Native::native.devices.at(device)) cb(e);\n"
    "}\n"
    "extern \"C\" __attribute__((visibility(\"default\"))) const char *fake_target_type()\n"
    "{ return Native::native.devices.at(0).at(0).target_type().name(); }\n";

/* What the tracker received. */
static unsigned char seen[16][CC_TORCH_TRACE_BYTES];
static int nseen;

static void on_entry(const unsigned char *entry)
{
    if (nseen < 16) {
        memcpy(seen[nseen], entry, CC_TORCH_TRACE_BYTES);
    }
    nseen++;
}

static void test_garbage(void)
{
    cc_torch_abi_syms s;
    char err[200];
    unsigned char junk[256];
    memset(junk, 0x7f, sizeof junk);
    CHECK(cc_torch_abi_find_symbols(junk, sizeof junk, &s, err, sizeof err) == -1);
    CHECK(cc_torch_abi_find_symbols(junk, 3, &s, err, sizeof err) == -1);
    unsigned char vt[24] = {0};
    vt[8] = 0x34;
    vt[9] = 0x12;
    CHECK(cc_torch_vtable_slot(vt, sizeof vt, 0x1234) == 1);
    CHECK(cc_torch_vtable_slot(vt, 15, 0x1234) == -1); /* a partial slot is not read */
    CHECK(cc_torch_vtable_slot(vt, sizeof vt, 0x99) == -1);
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

static void test_layouts(void)
{
    unsigned char e[CC_TORCH_TRACE_BYTES] = {0};
    cc_torch_trace_layout l;
    e[0] = CC_TORCH_SEGMENT_ALLOC;
    put64(e + 8, 0x7f0000200000ull);
    put64(e + 32, 0x7f00deadbeefull); /* stream */
    put64(e + 40, 0);                 /* c10::Stream's id */
    put64(e + 48, 2u << 20);
    CHECK(cc_torch_trace_learn(e, 0x7f0000200000ull, 2u << 20, &l) == 0);
    CHECK_EQ_U64(l.size_off, 48);
    CHECK_EQ_U64(l.pool_off, 56);
    CHECK(cc_torch_trace_learn(e, 0x7f0000200000ull, 4u << 20, &l) == -1); /* no size fits */
    CHECK(cc_torch_trace_learn(e, 0x7f0000400000ull, 2u << 20, &l) == -1); /* other address */
    e[0] = CC_TORCH_ALLOC;
    CHECK(cc_torch_trace_learn(e, 0x7f0000200000ull, 2u << 20, &l) == -1); /* not a segment */
}

/* The library's load bias. */
static uint64_t bias_of(void *handle)
{
    struct link_map *lm = NULL;
    return dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm ? (uint64_t)lm->l_addr : 0;
}

static void test_fake_library(void)
{
    char dir[] = "/tmp/cc-torch-abi-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    char src[256], lib[256], cmd[800];
    snprintf(src, sizeof src, "%s/fake.cpp", dir);
    snprintf(lib, sizeof lib, "%s/libc10_cuda.so", dir);
    CHECK(cc_test_write_file(src, fake_c10_cuda) == 0);
    snprintf(cmd, sizeof cmd,
             "g++ -std=c++17 -O1 -shared -fPIC -fvisibility=hidden -o %s %s 2>%s/err.txt", lib,
             src, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "g++ failed (%s/err.txt)\n", dir);
        CHECK(0);
        return;
    }
    size_t len = 0;
    char *image = cc_test_read_file(lib, &len);
    CHECK(image != NULL);
    cc_torch_abi_syms s;
    char err[200] = "";
    CHECK(image && cc_torch_abi_find_symbols(image, len, &s, err, sizeof err) == 0);
    if (err[0]) {
        fprintf(stderr, "find_symbols: %s\n", err);
    }
    CHECK(s.attach && s.initialized && s.vtable && s.allocator && s.vtable_size >= 16 + 5 * 8);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    CHECK(h != NULL);
    CHECK(h == NULL || dlsym(h, "_ZN3c104cuda20CUDACachingAllocator9allocatorE") == NULL);
    if (!h || cc_test_failures) {
        free(image);
        return;
    }
    uint64_t bias = bias_of(h);
    void (*fake_init)(int) = (void (*)(int))(uintptr_t)dlsym(h, "fake_init");
    void (*fake_emit)(int, int, size_t, size_t, uint64_t, uint64_t) =
        (void (*)(int, int, size_t, size_t, uint64_t, uint64_t))(uintptr_t)dlsym(h, "fake_emit");
    const char *(*fake_target_type)(void) =
        (const char *(*)(void))(uintptr_t)dlsym(h, "fake_target_type");

    void *object = *(void **)(uintptr_t)(s.allocator + bias);
    const unsigned char *vptr = *(const unsigned char **)object;
    CHECK((uint64_t)(uintptr_t)vptr == s.vtable + bias + 16);
    int attach_slot = cc_torch_vtable_slot(vptr, (size_t)(s.vtable_size - 16), s.attach + bias);
    int init_slot = cc_torch_vtable_slot(vptr, (size_t)(s.vtable_size - 16), s.initialized + bias);
    CHECK(attach_slot >= 0 && init_slot >= 0 && attach_slot != init_slot);

    _Bool (*initialized)(void *) = (_Bool (*)(void *))(uintptr_t)(s.initialized + bias);
    CHECK(!initialized(object));
    fake_init(2);
    CHECK(initialized(object));

    cc_torch_tracker t;
    cc_torch_tracker_init(&t, on_entry, dlsym(RTLD_DEFAULT, "_ZTIv"));
    void (*attach)(void *, cc_torch_tracker *) =
        (void (*)(void *, cc_torch_tracker *))(uintptr_t)(s.attach + bias);
    attach(object, &t);
    CHECK(t.manager != NULL); /* the caller's copy stays usable (copied, not moved from) */
    const char *tn = fake_target_type();
    CHECK(tn && strcmp(tn, "v") == 0); /* typeid(void) */

    fake_emit(1, CC_TORCH_SEGMENT_ALLOC, 0x7f0000200000ull, 2u << 20, 0, 0);
    fake_emit(1, CC_TORCH_ALLOC, 0x7f0000200200ull, 4000, 0, 0);
    fake_emit(0, CC_TORCH_ALLOC, 0x7f0000900000ull, 512, 1, 7);
    fake_emit(0, CC_TORCH_FREE_COMPLETED, 0x7f0000900000ull, 512, 1, 7);
    CHECK(nseen == 4);
    cc_torch_trace_layout l;
    CHECK(cc_torch_trace_learn(seen[0], 0x7f0000200000ull, 2u << 20, &l) == 0);
    CHECK_EQ_U64(l.size_off, 40);
    CHECK_EQ_U64(l.pool_off, 48);
    CHECK(cc_torch_trace_learn(seen[0], 0x7f0000200000ull, 1u << 20, &l) == -1);
    CHECK(cc_torch_trace_learn(seen[0], 0x7f0000200000ull, 2u << 20, &l) == 0);
    cc_torch_trace tr;
    cc_torch_trace_decode(seen[1], &l, &tr);
    CHECK(tr.action == CC_TORCH_ALLOC && tr.device == 1);
    CHECK_EQ_U64(tr.addr, 0x7f0000200200ull);
    CHECK_EQ_U64(tr.size, 4000);
    CHECK(tr.pool[0] == 0 && tr.pool[1] == 0);
    cc_torch_trace_decode(seen[3], &l, &tr);
    CHECK(tr.action == CC_TORCH_FREE_COMPLETED && tr.device == 0);
    CHECK(tr.pool[0] == 1 && tr.pool[1] == 7);
    dlclose(h);
    free(image);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
    }
}

int main(void)
{
    test_garbage();
    test_layouts();
    if (system("g++ --version >/dev/null 2>&1") == 0) {
        test_fake_library();
    } else {
        printf("g++ not found: the library checks are skipped\n");
    }
    TEST_MAIN_END();
}
