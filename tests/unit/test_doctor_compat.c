/* Unit tests of doctor's pure compatibility rules (src/doctor/compat*.c): version tables,
 * SASS/PTX compatibility, image choice for (driver, binary archs, GPU CC), driver vs runtime,
 * library version decoding and CUDA_VISIBLE_DEVICES / CUDA_MODULE_LOADING parsing. */
#include "check.h"
#include "doctor/compat.h"
#include "doctor/compat_env.h"

static cc_doc_image sass(int arch, char suffix)
{
    cc_doc_image i = {0, suffix, (uint16_t)arch, 0, 0};
    return i;
}

static cc_doc_image ptx(int arch, int maj, int min)
{
    cc_doc_image i = {1, 0, (uint16_t)arch, (uint16_t)maj, (uint16_t)min};
    return i;
}

static void test_versions(void)
{
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(6, 0), 9000);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(6, 4), 10010);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(7, 8), 11080);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(8, 5), 12050);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(8, 6), 12070);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(8, 8), 12090);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(9, 0), 13000);
    CHECK_EQ_U64(cc_doc_ptx_min_cuda(9, 1), 13010);
    int m = 0, n = 0;
    cc_doc_driver_max_ptx(12060, &m, &n); /* 12.6 kept PTX 8.5 */
    CHECK(m == 8 && n == 5);
    cc_doc_driver_max_ptx(12080, &m, &n);
    CHECK(m == 8 && n == 7);
    cc_doc_driver_max_ptx(13000, &m, &n);
    CHECK(m == 9 && n == 0);
    cc_doc_driver_max_ptx(11040, &m, &n);
    CHECK(m == 7 && n == 4);
    CHECK_EQ_U64(cc_doc_driver_branch_for_cuda(13000), 580);
    CHECK_EQ_U64(cc_doc_driver_branch_for_cuda(12040), 550);
    CHECK_EQ_U64(cc_doc_driver_branch_for_cuda(12070), 570);
    CHECK_EQ_U64(cc_doc_driver_branch_for_cuda(11080), 520);
    CHECK_EQ_U64(cc_doc_driver_branch_for_cuda(14000), 0);
    CHECK_EQ_U64(cc_doc_driver_branch_for_major(12), 525);
    CHECK_EQ_U64(cc_doc_driver_branch_for_major(13), 580);
    CHECK_EQ_U64(cc_doc_cuda_for_driver_branch(535), 12020);
    CHECK_EQ_U64(cc_doc_cuda_for_driver_branch(575), 12090);
    CHECK_EQ_U64(cc_doc_cuda_for_driver_branch(400), 0);
    char s[16];
    cc_doc_cuda_str(12040, s, sizeof s);
    CHECK_STR(s, "12.4");
    cc_doc_cuda_str(0, s, sizeof s);
    CHECK_STR(s, "unknown");
}

static void test_compat(void)
{
    CHECK(cc_doc_sass_runs(80, 0, 86));
    CHECK(cc_doc_sass_runs(80, 0, 89));
    CHECK(!cc_doc_sass_runs(86, 0, 80));
    CHECK(!cc_doc_sass_runs(80, 0, 90));
    CHECK(cc_doc_sass_runs(90, 'a', 90));
    CHECK(!cc_doc_sass_runs(90, 'a', 100));
    CHECK(!cc_doc_sass_runs(100, 'a', 103));
    CHECK(cc_doc_sass_runs(100, 'f', 103));
    CHECK(!cc_doc_sass_runs(100, 0, 120));
    CHECK(cc_doc_sass_runs(120, 0, 121));
    CHECK(cc_doc_ptx_arch_ok(90, 0, 100));
    CHECK(cc_doc_ptx_arch_ok(80, 0, 80));
    CHECK(!cc_doc_ptx_arch_ok(100, 0, 90));
    CHECK(cc_doc_ptx_arch_ok(90, 'a', 90));
    CHECK(!cc_doc_ptx_arch_ok(90, 'a', 100));
    CHECK(cc_doc_ptx_arch_ok(100, 'f', 103));
    CHECK(!cc_doc_ptx_arch_ok(100, 'f', 120));
}

static void test_pick(void)
{
    cc_doc_image imgs[4];
    cc_doc_pick p;
    char buf[96];
    /* binary only for sm_100 on an H200 (CC 9.0), CUDA 13.0 driver */
    imgs[0] = sass(100, 0);
    p = cc_doc_pick_image(imgs, 1, 90, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_NO_IMAGE);
    cc_doc_gencode_for(90, buf, sizeof buf);
    CHECK_STR(buf, "-gencode arch=compute_90,code=sm_90");
    cc_doc_gencode_for(121, buf, sizeof buf);
    CHECK_STR(buf, "-gencode arch=compute_121,code=sm_121");
    /* highest compatible SASS wins */
    imgs[0] = sass(80, 0);
    imgs[1] = sass(90, 0);
    imgs[2] = ptx(90, 9, 0);
    p = cc_doc_pick_image(imgs, 3, 90, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_SASS);
    CHECK_EQ_U64(p.image, 1);
    p = cc_doc_pick_image(imgs, 3, 86, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_SASS);
    CHECK_EQ_U64(p.image, 0);
    /* no SASS for CC 10.0: JIT from compute_90 when the driver knows PTX 9.0 */
    p = cc_doc_pick_image(imgs, 3, 100, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_PTX_JIT);
    CHECK_EQ_U64(p.image, 2);
    /* same, but a CUDA 12.8 driver does not know PTX ISA 9.0 */
    p = cc_doc_pick_image(imgs, 3, 100, 12080, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_PTX_TOO_NEW);
    CHECK_EQ_U64(p.need_cuda, 13000);
    /* unknown driver: the ISA check is skipped */
    p = cc_doc_pick_image(imgs, 3, 100, 0, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_PTX_JIT);
    /* an older PTX that the driver accepts is used over a newer one it rejects */
    imgs[0] = ptx(80, 7, 0);
    imgs[1] = ptx(90, 9, 0);
    p = cc_doc_pick_image(imgs, 2, 90, 12040, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_PTX_JIT);
    CHECK_EQ_U64(p.image, 0);
    /* 'a' targets are not portable */
    imgs[0] = sass(90, 'a');
    p = cc_doc_pick_image(imgs, 1, 90, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_SASS);
    p = cc_doc_pick_image(imgs, 1, 100, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_NO_IMAGE);
    /* environment */
    cc_doc_env_flags env = {1, 0};
    imgs[0] = ptx(80, 8, 0);
    p = cc_doc_pick_image(imgs, 1, 90, 13000, &env);
    CHECK_EQ_U64(p.kind, CC_RUN_JIT_DISABLED);
    env.disable_ptx_jit = 0;
    env.force_ptx_jit = 1;
    imgs[1] = sass(90, 0);
    p = cc_doc_pick_image(imgs, 2, 90, 13000, &env);
    CHECK_EQ_U64(p.kind, CC_RUN_PTX_JIT);
    p = cc_doc_pick_image(imgs + 1, 1, 90, 13000, &env);
    CHECK_EQ_U64(p.kind, CC_RUN_NO_IMAGE);
    p = cc_doc_pick_image(imgs, 0, 90, 13000, NULL);
    CHECK_EQ_U64(p.kind, CC_RUN_NO_DEVICE_CODE);
}

static void test_parse_arch(void)
{
    cc_doc_image i;
    CHECK(cc_doc_parse_arch("sm_90a", &i) == 0 && i.arch == 90 && i.suffix == 'a' && !i.is_ptx);
    CHECK(cc_doc_parse_arch("compute_100f", &i) == 0 && i.arch == 100 && i.suffix == 'f' &&
          i.is_ptx);
    CHECK(cc_doc_parse_arch("sm_80", &i) == 0 && i.arch == 80 && i.suffix == 0);
    CHECK(cc_doc_parse_arch("9.0", &i) == 0 && i.arch == 90);
    CHECK(cc_doc_parse_arch("sm_", &i) != 0);
    CHECK(cc_doc_parse_arch("sm_9x", &i) != 0);
    CHECK(cc_doc_parse_arch("sm_90ab", &i) != 0);
    CHECK(cc_doc_parse_arch("", &i) != 0);
    CHECK(cc_doc_parse_arch(NULL, &i) != 0);
    CHECK_EQ_U64(cc_doc_parse_cc("12.1"), 121);
    CHECK_EQ_U64(cc_doc_parse_cc("9.0"), 90);
    CHECK_EQ_U64(cc_doc_parse_cc("90"), 90);
    CHECK(cc_doc_parse_cc("1.23") < 0);
    CHECK(cc_doc_parse_cc("abc") < 0);
    CHECK(cc_doc_parse_cc("9.") < 0);
    CHECK(cc_doc_parse_cc("99999999") < 0);
    cc_doc_image v[3] = {ptx(90, 9, 0), sass(90, 'a'), sass(80, 0)};
    cc_doc_sort_images(v, 3);
    CHECK(v[0].arch == 80 && v[1].arch == 90 && !v[1].is_ptx && v[2].is_ptx);
}

static void test_driver_fit(void)
{
    CHECK_EQ_U64(cc_doc_driver_fits(13000, 12080), CC_DRV_TOO_OLD);
    CHECK_EQ_U64(cc_doc_driver_fits(12080, 12040), CC_DRV_MINOR_COMPAT);
    CHECK_EQ_U64(cc_doc_driver_fits(12040, 13000), CC_DRV_OK);
    CHECK_EQ_U64(cc_doc_driver_fits(12040, 12040), CC_DRV_OK);
    CHECK_EQ_U64(cc_doc_driver_fits(0, 12040), CC_DRV_UNKNOWN);
    CHECK_EQ_U64(cc_doc_driver_fits(12040, 0), CC_DRV_UNKNOWN);
}

static void test_decode(void)
{
    int a, b, c;
    cc_doc_decode_cudnn(90100, &a, &b, &c);
    CHECK(a == 9 && b == 1 && c == 0);
    cc_doc_decode_cudnn(8907, &a, &b, &c);
    CHECK(a == 8 && b == 9 && c == 7);
    cc_doc_decode_nccl(22707, &a, &b, &c);
    CHECK(a == 2 && b == 27 && c == 7);
    cc_doc_decode_nccl(2804, &a, &b, &c);
    CHECK(a == 2 && b == 8 && c == 4);
    cc_doc_decode_cublaslt(130100, &a, &b, &c);
    CHECK(a == 13 && b == 1 && c == 0);
    CHECK_EQ_U64(cc_doc_cupti_cuda(130001), 13000);
    CHECK_EQ_U64(cc_doc_cupti_cuda(19), 12000);
    CHECK_EQ_U64(cc_doc_cupti_cuda(26), 12080);
    CHECK_EQ_U64(cc_doc_cupti_cuda(99), 0);
}

static void test_visible(void)
{
    cc_doc_visible v;
    cc_doc_parse_visible(NULL, 2, NULL, &v);
    CHECK(!v.set && v.count == 0);
    cc_doc_parse_visible("1,0", 2, NULL, &v);
    CHECK(v.set && v.count == 2 && v.index[0] == 1 && v.index[1] == 0 && v.first_invalid < 0);
    cc_doc_parse_visible("0,5,1", 2, NULL, &v);
    CHECK(v.count == 1 && v.first_invalid == 1);
    CHECK_STR(v.invalid, "5");
    cc_doc_parse_visible("", 2, NULL, &v);
    CHECK(v.set && v.count == 0 && v.first_invalid < 0);
    cc_doc_parse_visible("-1", 2, NULL, &v);
    CHECK(v.count == 0 && v.first_invalid == 0);
    cc_doc_parse_visible("0,0", 2, NULL, &v);
    CHECK(v.count == 1 && v.first_invalid == 1);
    cc_doc_parse_visible(" 3 ", -1, NULL, &v);
    CHECK(v.count == 1 && v.index[0] == 3);
    const char *uuids[2] = {"GPU-aaaa1111-0000", "GPU-bbbb2222-0000"};
    cc_doc_parse_visible("GPU-bbbb", 2, uuids, &v);
    CHECK(v.count == 1 && v.index[0] == 1);
    cc_doc_parse_visible("GPU-cccc", 2, uuids, &v);
    CHECK(v.count == 0 && v.first_invalid == 0);
    cc_doc_parse_visible("GPU-", 2, uuids, &v);
    CHECK(v.count == 0 && v.first_invalid == 0);
    cc_doc_parse_visible("MIG-1234abcd", 2, uuids, &v);
    CHECK(v.count == 1 && v.has_mig);
    cc_doc_parse_visible("0,abc,1", 2, NULL, &v);
    CHECK(v.count == 1 && v.first_invalid == 1);

    CHECK_EQ_U64(cc_doc_parse_module_loading(NULL), CC_MODLOAD_UNSET);
    CHECK_EQ_U64(cc_doc_parse_module_loading("LAZY"), CC_MODLOAD_LAZY);
    CHECK_EQ_U64(cc_doc_parse_module_loading("EAGER"), CC_MODLOAD_EAGER);
    CHECK_EQ_U64(cc_doc_parse_module_loading("lazy"), CC_MODLOAD_INVALID);
    CHECK(!cc_doc_lazy_loading(CC_MODLOAD_UNSET, 12010));
    CHECK(cc_doc_lazy_loading(CC_MODLOAD_UNSET, 12020));
    CHECK(cc_doc_lazy_loading(CC_MODLOAD_LAZY, 11070));
    CHECK(!cc_doc_lazy_loading(CC_MODLOAD_LAZY, 11060));
    CHECK(!cc_doc_lazy_loading(CC_MODLOAD_EAGER, 13000));
    CHECK(cc_doc_env_true("1") && !cc_doc_env_true("0") && !cc_doc_env_true(NULL));
}

int main(void)
{
    test_versions();
    test_compat();
    test_pick();
    test_parse_arch();
    test_driver_fit();
    test_decode();
    test_visible();
    TEST_MAIN_END();
}
