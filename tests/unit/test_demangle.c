/* Unit tests of kernel-name demangling (symbols/demangle.h, demangle_itanium.h): the names CUDA
 * programs give their kernels (templates, lambdas, nvcc's anonymous namespace and __nv_static_
 * prefix, nested names, function pointer parameters, argument packs, thrust/CUB instantiations)
 * read as the program wrote them; plain C names (extern "C", Triton, cuBLAS) and names that
 * cannot be read shown unchanged; names longer than the C++ runtime's demangler reads (1,024
 * characters) read by cucheck's own, which agrees with the runtime on every construct it knows;
 * hostile names refused without exhausting the stack, memory or time; the cache demangles each
 * distinct name once. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "symbols/demangle.h"
#include "symbols/demangle_itanium.h"

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* The name cc_demangle_alloc gives, or the name itself when it gives none. */
static void check_shown(const char *name, const char *want, int line)
{
    char *got = cc_demangle_alloc(name);
    const char *shown = got ? got : name;
    if (strcmp(shown, want) != 0) {
        fprintf(stderr, "%s:%d: %s\n  shown  %s\n  wanted %s\n", __FILE__, line, name, shown, want);
        cc_test_failures++;
    }
    free(got);
}
#define SHOWN(name, want) check_shown(name, want, __LINE__)
#define UNCHANGED(name) check_shown(name, name, __LINE__)

static void cuda_kernel_names(void)
{
    SHOWN("_Z10k3_scatterPKxPKfPfix",
          "k3_scatter(long long const*, float const*, float*, int, long long)");
    SHOWN("_Z9oob_writePfi", "oob_write(float*, int)");
    SHOWN("_Z13parse_recordsPKhPii", "parse_records(unsigned char const*, int*, int)");
    /* templates, with integer arguments (negative too) */
    SHOWN("_Z7tkernelIfLi256EEvPT_i", "void tkernel<float, 256>(float*, int)");
    SHOWN("_Z7tkernelIdLin1EEvPT_i", "void tkernel<double, -1>(double*, int)");
    SHOWN("_Z6kernelIN6thrust7complexIdEEEvPT_S4_i",
          "void kernel<thrust::complex<double> >(thrust::complex<double>*, "
          "thrust::complex<double>*, int)");
    /* a device lambda as a template argument (nvcc --extended-lambda) */
    SHOWN("_Z7lkernelIZ4hostPfEUlS0_E_EvT_S0_",
          "void lkernel<host(float*)::{lambda(float*)#1}>(host(float*)::{lambda(float*)#1}, "
          "float*)");
    SHOWN("_Z7lkernelIZ4hostPfEUlS0_E0_EvT_S0_",
          "void lkernel<host(float*)::{lambda(float*)#2}>(host(float*)::{lambda(float*)#2}, "
          "float*)");
    SHOWN("_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()() const");
    /* nvcc's anonymous namespace, and its prefix of file-static entities under -rdc */
    SHOWN("_ZN36_GLOBAL__N__932ef5e0_4_k_cu_7d1488e611anon_kernelEPf",
          "(anonymous namespace)::anon_kernel(float*)");
    SHOWN("__nv_static_25__932ef5e0_4_k_cu_7d1488e6__Z13static_kernelPf", "static_kernel(float*)");
    SHOWN("__nv_static_25__932ef5e0_4_k_cu_7d1488e6__ZN36_GLOBAL__N__932ef5e0_4_k_cu_7d1488e611"
          "anon_kernelEPf",
          "(anonymous namespace)::anon_kernel(float*)");
    SHOWN("__nv_static_25__932ef5e0_4_k_cu_7d1488e6_plain_static", "plain_static");
    /* nested names, a function pointer parameter, an argument pack */
    SHOWN("_ZN5outer5inner6nestedENS0_1SEPf", "outer::inner::nested(outer::inner::S, float*)");
    SHOWN("_Z11fptr_kernelPFvPfES_", "fptr_kernel(void (*)(float*), float*)");
    SHOWN("_ZN3app6detail11reduce_tileIJifEEEvDpPT_",
          "void app::detail::reduce_tile<int, float>(int*, float*)");
    /* PyTorch's elementwise kernel: lambdas inside lambdas inside a function, std::array */
    SHOWN("_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_23direct_copy_kernel_cudaERNS_"
          "18TensorIteratorBaseEENKUlvE1_clEvENKUlvE9_clEvEUlN3c104HalfEE_St5arrayIPcLm2EEEEviT0_"
          "T1_",
          "void at::native::vectorized_elementwise_kernel<4, at::native::direct_copy_kernel_cuda("
          "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#11}::operator()("
          ") const::{lambda(c10::Half)#1}, std::array<char*, 2ul> >(int, at::native::direct_copy_"
          "kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#11}::"
          "operator()() const::{lambda(c10::Half)#1}, std::array<char*, 2ul>)");
    /* CUB's for_each kernel of thrust::for_each over a zip iterator with a device lambda */
    SHOWN(
    "_ZN3cub17CUB_300001_SM_9006detail8for_each13static_kernelINS2_12policy_hub_t12policy_500"
    "_tElNS2_12op_wrapper_tIlZ3runRN6thrust23THRUST_300001_SM_900_NS13device_vectorIfNS8_16de"
    "vice_allocatorIfEEEERNS9_IiNSA_IiEEEEEUlN4cuda3std3__45tupleIJRfRiEEEE_NS8_12zip_iterato"
    "rINSK_IJNS8_6detail15normal_iteratorINS8_10device_ptrIfEEEENSR_INSS_IiEEEEEEEEEEEEEvT0_T"
    "1_",
    "void cub::CUB_300001_SM_900::detail::for_each::static_kernel<cub::CUB_300001_SM_900::det"
    "ail::for_each::policy_hub_t::policy_500_t, long, cub::CUB_300001_SM_900::detail::for_eac"
    "h::op_wrapper_t<long, run(thrust::THRUST_300001_SM_900_NS::device_vector<float, thrust::"
    "THRUST_300001_SM_900_NS::device_allocator<float> >&, thrust::THRUST_300001_SM_900_NS::de"
    "vice_vector<int, thrust::THRUST_300001_SM_900_NS::device_allocator<int> >&)::{lambda(cud"
    "a::std::__4::tuple<float&, int&>)#1}, thrust::THRUST_300001_SM_900_NS::zip_iterator<cuda"
    "::std::__4::tuple<thrust::THRUST_300001_SM_900_NS::detail::normal_iterator<thrust::THRUS"
    "T_300001_SM_900_NS::device_ptr<float> >, thrust::THRUST_300001_SM_900_NS::detail::normal"
    "_iterator<thrust::THRUST_300001_SM_900_NS::device_ptr<int> > > > > >(long, cub::CUB_3000"
    "01_SM_900::detail::for_each::op_wrapper_t<long, run(thrust::THRUST_300001_SM_900_NS::dev"
    "ice_vector<float, thrust::THRUST_300001_SM_900_NS::device_allocator<float> >&, thrust::T"
    "HRUST_300001_SM_900_NS::device_vector<int, thrust::THRUST_300001_SM_900_NS::device_alloc"
    "ator<int> >&)::{lambda(cuda::std::__4::tuple<float&, int&>)#1}, thrust::THRUST_300001_SM"
    "_900_NS::zip_iterator<cuda::std::__4::tuple<thrust::THRUST_300001_SM_900_NS::detail::nor"
    "mal_iterator<thrust::THRUST_300001_SM_900_NS::device_ptr<float> >, thrust::THRUST_300001"
    "_SM_900_NS::detail::normal_iterator<thrust::THRUST_300001_SM_900_NS::device_ptr<int> > >"
    " > >)");
}

static void plain_and_unreadable_names(void)
{
    UNCHANGED("plain_c_kernel");
    UNCHANGED("triton_poi_fused_add_0");
    UNCHANGED("triton_red_fused__softmax_1");
    UNCHANGED("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas");
    UNCHANGED("ampere_sgemm_128x64_nn");
    UNCHANGED("");
    UNCHANGED("_Z");
    UNCHANGED("_Zbogus");
    UNCHANGED("_Z10k3_scatterPKxPK"); /* cut short */
    UNCHANGED("_Z6brokenPK");
    UNCHANGED("_ZN1AIiE1fEvT_");      /* T_ outside any template */
    /* not nvcc's prefix after all: left as they are */
    UNCHANGED("__nv_static_");
    UNCHANGED("__nv_static_9_abc_x");
    UNCHANGED("__nv_static_3_abc_");
    UNCHANGED("__nv_static_3_abcd");
    UNCHANGED("__nv_static_99999999999_a_b");
    CHECK(cc_demangle_alloc(NULL) == NULL);
    char out[16];
    CHECK(cc_demangle(NULL, out, sizeof out) == 0 && out[0] == '\0');
}

/* A name nvcc gave a kernel of this shape (lambda, anonymous namespace, packs, negative and
 * unsigned long literals, a function pointer): 1,095 characters, which libstdc++ refuses. */
static const char k_long_mangled[] =
    "_Z10big_kernelIN4gemm6detail6ConfigIN39_GLOBAL__N__4b1602ee_7_long_cu_18f5cf2a5tupleIJfN"
    "S3_3seqIJLi1ELi2ELi3ELi4ELi5ELi6ELi7ELi8ELi9ELi10ELi11ELi12ELi13ELi14ELi15ELi16ELi17ELi1"
    "8ELi19ELi20ELi21ELi22ELi23ELi24ELi25ELi26ELi27ELi28ELi29ELi30EEEEEEENS4_IJdNS5_IJLi31ELi"
    "32ELi33ELi34ELi35ELi36ELi37ELi38ELi39ELi40ELi41ELi42ELi43ELi44ELi45ELi46ELi47ELi48ELi49E"
    "Li50ELi51ELi52ELi53ELi54ELi55ELi56ELi57ELi58ELi59ELi60EEEENS5_IJLin1ELin2ELin3ELin4ELin5"
    "ELin6ELin7ELin8ELin9ELin10ELin11ELin12ELin13ELin14ELin15ELin16ELin17ELin18ELin19ELin20EL"
    "in21ELin22ELin23ELin24ELin25ELin26ELin27ELin28ELin29ELin30EEEEEEENS4_IJNS4_IJS6_S8_EEENS"
    "4_IJS8_S9_EEENS4_IJS9_S6_EEENS4_IJNS5_IJLi100ELi101ELi102ELi103ELi104ELi105ELi106ELi107E"
    "Li108ELi109ELi110ELi111ELi112ELi113ELi114ELi115ELi116ELi117ELi118ELi119ELi120ELi121ELi12"
    "2ELi123ELi124ELi125ELi126ELi127ELi128ELi129EEEENS5_IJLi1000ELi1001ELi1002ELi1003ELi1004E"
    "Li1005ELi1006ELi1007ELi1008ELi1009ELi1010ELi1011ELi1012ELi1013ELi1014ELi1015ELi1016ELi10"
    "17ELi1018ELi1019ELi1020EEEEEEENS1_7alignedIdLm16EEEEEELi128ELi256ELi64EEEZ4hostPfEUlPKfE"
    "_JijPFvSL_ENSH_IfLm8EEEEEvT_T0_SN_DpT1_";
static const char k_long_shown[] =
    "void big_kernel<gemm::detail::Config<(anonymous namespace)::tuple<float, (anonymous name"
    "space)::seq<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 2"
    "2, 23, 24, 25, 26, 27, 28, 29, 30> >, (anonymous namespace)::tuple<double, (anonymous na"
    "mespace)::seq<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49"
    ", 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60>, (anonymous namespace)::seq<-1, -2, -3, -4"
    ", -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -"
    "23, -24, -25, -26, -27, -28, -29, -30> >, (anonymous namespace)::tuple<(anonymous namesp"
    "ace)::tuple<(anonymous namespace)::seq<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15"
    ", 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>, (anonymous namespace)::se"
    "q<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52"
    ", 53, 54, 55, 56, 57, 58, 59, 60> >, (anonymous namespace)::tuple<(anonymous namespace):"
    ":seq<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,"
    " 52, 53, 54, 55, 56, 57, 58, 59, 60>, (anonymous namespace)::seq<-1, -2, -3, -4, -5, -6,"
    " -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24, "
    "-25, -26, -27, -28, -29, -30> >, (anonymous namespace)::tuple<(anonymous namespace)::seq"
    "<-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -"
    "20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30>, (anonymous namespace)::seq<1, 2, "
    "3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,"
    " 27, 28, 29, 30> >, (anonymous namespace)::tuple<(anonymous namespace)::seq<100, 101, 10"
    "2, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, "
    "120, 121, 122, 123, 124, 125, 126, 127, 128, 129>, (anonymous namespace)::seq<1000, 1001"
    ", 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015, 10"
    "16, 1017, 1018, 1019, 1020> >, gemm::detail::aligned<double, 16ul> >, 128, 256, 64>, hos"
    "t(float*)::{lambda(float const*)#1}, int, unsigned int, void (*)(float*), gemm::detail::"
    "aligned<float, 8ul> >(gemm::detail::Config<(anonymous namespace)::tuple<float, (anonymou"
    "s namespace)::seq<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,"
    " 21, 22, 23, 24, 25, 26, 27, 28, 29, 30> >, (anonymous namespace)::tuple<double, (anonym"
    "ous namespace)::seq<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, "
    "48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60>, (anonymous namespace)::seq<-1, -2, "
    "-3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, "
    "-22, -23, -24, -25, -26, -27, -28, -29, -30> >, (anonymous namespace)::tuple<(anonymous "
    "namespace)::tuple<(anonymous namespace)::seq<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, "
    "14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>, (anonymous namespac"
    "e)::seq<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, "
    "51, 52, 53, 54, 55, 56, 57, 58, 59, 60> >, (anonymous namespace)::tuple<(anonymous names"
    "pace)::seq<31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 5"
    "0, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60>, (anonymous namespace)::seq<-1, -2, -3, -4, -"
    "5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23,"
    " -24, -25, -26, -27, -28, -29, -30> >, (anonymous namespace)::tuple<(anonymous namespace"
    ")::seq<-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, "
    "-19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30>, (anonymous namespace)::seq<"
    "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 2"
    "5, 26, 27, 28, 29, 30> >, (anonymous namespace)::tuple<(anonymous namespace)::seq<100, 1"
    "01, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118,"
    " 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129>, (anonymous namespace)::seq<1000"
    ", 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 10"
    "15, 1016, 1017, 1018, 1019, 1020> >, gemm::detail::aligned<double, 16ul> >, 128, 256, 64"
    ">, host(float*)::{lambda(float const*)#1}, float const*, int, unsigned int, void (*)(flo"
    "at*), gemm::detail::aligned<float, 8ul>)";

/* The mangled name and demangled text of a template nested depth deep around int, each level
 * an identifier of idlen letters (built here, so a name of any length has a known answer). */
static void nested_template(int depth, int idlen, char **mangled, char **shown)
{
    size_t cap = (size_t)depth * ((size_t)idlen + 32) + 64;
    char *id = malloc((size_t)idlen + 1), *m = malloc(cap), *s = malloc(2 * cap), *t = malloc(2 * cap);
    memset(id, 'n', (size_t)idlen);
    id[idlen] = '\0';
    strcpy(m, "i");
    strcpy(s, "int");
    for (int i = 0; i < depth; i++) {
        snprintf(t, 2 * cap, "N%d%s1SI%sEE", idlen, id, m);
        strcpy(m, t);
        snprintf(t, 2 * cap, "%s::S<%s%s>", id, s, s[strlen(s) - 1] == '>' ? " " : "");
        strcpy(s, t);
    }
    snprintf(t, 2 * cap, "_Z6kernelI%sEvPT_", m);
    *mangled = strdup(t);
    snprintf(t, 2 * cap, "void kernel<%s%s>(%s*)", s, s[strlen(s) - 1] == '>' ? " " : "", s);
    *shown = strdup(t);
    free(id);
    free(m);
    free(s);
    free(t);
}

static void long_names(void)
{
    int status = 0;
    char *runtime = __cxa_demangle(k_long_mangled, NULL, NULL, &status);
    CHECK(runtime == NULL); /* the runtime's limit this reader is for */
    free(runtime);
    CHECK(strlen(k_long_mangled) > 1024);
    SHOWN(k_long_mangled, k_long_shown);

    const int depths[] = {5, 12, 40, 150};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        char *m, *s;
        nested_template(depths[i], 60, &m, &s);
        SHOWN(m, s);
        free(m);
        free(s);
    }

    /* A template parameter taken as a substitution inside the address of a function template
     * (curand's generators): S3_ below is T_, which names the generator's own first argument
     * where the generator prints it, not the inner function's. */
    char id[901], m[2048], want[8192];
    memset(id, 's', 900);
    id[900] = '\0';
    snprintf(m, sizeof m, "_Z13gen_sequencedI%zu%sjdXadL_Z35internal_curand_poisson_from_normalIPS0_"
             "EjT_dEE10rng_configIS0_L14curandOrdering101EEEvPS3_PT0_mmT1_", strlen(id), id);
    snprintf(want, sizeof want, "void gen_sequenced<%s, unsigned int, double, &(unsigned int "
             "internal_curand_poisson_from_normal<%s*>(%s*, double)), rng_config<%s, "
             "(curandOrdering)101> >(%s*, unsigned int*, unsigned long, unsigned long, double)",
             id, id, id, id, id);
    SHOWN(m, want);
}

/* cucheck's reader and the runtime's agree on every construct the reader knows (the runtime reads
 * these short names itself; here both are asked). */
static void agrees_with_runtime(void)
{
    static const char *const names[] = {
        "_Z1fILi5ELj5ELl5ELm5ELx5ELy5ELb1ELb0ELc97ELa5ELh5ELs5ELt5ELin5ELb2EEvv",
        "_Z1fILsn5EEvv", "_Z1fIL3Foo1EEvv", "_Z1fIL3Foon1EEvv", "_Z1fILPi0EEvv",
        "_Z1fILf3f800000EEvv", "_Z1fILd3ff0000000000000EEvv", "_Z1fILDnEEvv", "_Z1fILDn0EEvv",
        "_Z1fIJifEEvDpT_", "_Z1fIJEEvDpT_", "_Z1fIJifEEvDpPT_", "_Z1fIJifEEvDpRKT_",
        "_Z1fIJLi1ELi2EEEvv", "_Z1fIiEvT_S_", "_Z1fIiEvT_PS_",
        "_Z1fPA4_i", "_Z1fRA4_i", "_Z1fA4_i", "_Z1fA4_A5_i", "_Z1fPA4_A5_i", "_Z1fILi2EEvPAT__i",
        "_Z1fPFviE", "_Z1fFvvE", "_Z1fRFvvE", "_Z1fPPFvvE", "_Z1fRKPFviE", "_Z1fPFPFivEvE",
        "_Z1fM1AFviE", "_Z1fM1Ai", "_Z1fM1AKFviE", "_Z1fPKFviE", "_Z1fPM1AFviE",
        "_ZNK1A1fEv", "_ZNKR1A1fEv", "_ZNO1A1fEv", "_Z1fPVKi", "_Z1fPrVKi", "_Z1fPKPc",
        "_Z1fIXadL_Z1gvEEEvv", "_Z1fIL_Z1gvEEvv", "_Z1fILi1EEvAplT_Li1E_i", "_Z1fIiEvAszfp__i",
        "_Z1fIiEvDTstT_E", "_Z1fIiEN9enable_ifIXgtT_Li0EEvE4typeEv", "_Z1fIiEvDTplfp_fp_E",
        "_ZN1AC1Ev", "_ZN1AD2Ev", "_ZN1AIiEC1Ev", "_ZN1A1BIiEC2ERKS1_", "_ZNK1AIiEcvT_IfEEv",
        "_ZN1AcviEv", "_ZN1AplERKS_", "_ZN1AixEi", "_ZN1AclEv", "_ZN1AnwEm", "_ZN1AdaEPv",
        "_Z1fB5cxx11v", "_ZN1A1fB5cxx11Ev", "_Z1fSsSaIcE", "_ZSt4swapIiEvRT_S1_",
        "_ZNSt6vectorIiSaIiEE9push_backERKi", "_ZZ4mainE1x", "_ZZ4mainE1x_0", "_ZZ4mainEs",
        "_ZZ4mainENKUlvE0_clEv", "_ZZN1A1fEvE1x", "_ZZZ4mainENKUlvE_clEvE1x", "_ZN1AUt_E",
        "_ZN1AUt0_E", "_ZN1AUlvE_E", "_Z1fIZ4mainE3FooEvv", "_ZN12_GLOBAL__N_11fEv",
        "_Z1fDh", "_Z1fPDv4_f", "_Z1fPU7__constf", "_ZL6staticPf", "_Z3foov.part.0",
        "_Z3foov.constprop.0.isra.0", "_Z1fI1AIiEEvv", "_ZN1AIJiEE1fEv", "_Z1fIJPiEEvDpT_",
        "_ZN1A1BIiE1CIfE1fIdEEvT_", "_Z1fIiEvN1AIT_E1BE", "_Z1fIiEvN1AIT_E1BIS0_EE",
        "_Z1fIcEvPKT_", "_Z1fI1AISaIiEJEEEvv", "_Z1fIJEiEvDpT_T0_", "_Z1fOi", "_Z1fIRiEvOT_", "_Z1fIiEvRAT__i", "_ZN1aE",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int status = -1;
        char *want = __cxa_demangle(names[i], NULL, NULL, &status);
        char *got = cc_itanium_demangle(names[i], strlen(names[i]), NULL);
        if (status != 0 || !want || !got || strcmp(got, want) != 0) {
            fprintf(stderr, "%s:%d: %s\n  cucheck %s\n  runtime %s\n", __FILE__, __LINE__,
                    names[i], got ? got : "(refused)", want ? want : "(refused)");
            cc_test_failures++;
        }
        free(want);
        free(got);
    }
    /* a construct this reader leaves to the runtime (a call in decltype): read by the runtime;
     * with more back-references than the runtime is trusted with, shown as it is */
    SHOWN("_Z1fIiEDTcl1gfp_EET_", "decltype (g({parm#1})) f<int>(int)");
    UNCHANGED("_Z1fIiEDTcl1gfp_EET_S_S_S_S_S_S_S_S_S_S_S_S_S_");
    /* _FloatN, which this libstdc++ does not know yet (binutils' c++filt reads it so) */
    char *f16 = cc_itanium_demangle("_Z1fDhDF16_Dn", 13, NULL);
    CHECK_STR(f16, "f(half, _Float16, decltype(nullptr))");
    free(f16);
    /* and refuses what the runtime cannot read */
    static const char *const bad[] = {"_Z1fIT_EvS_", "_Z1fUt_", "_Z", "_Z1", "_Z1fI",
                                      "_Z1fS_", "_Z1fIiEvT0_", "_ZTV1A", "_Z1fv.", "_Z1fvE", "_ZNE"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *got = cc_itanium_demangle(bad[i], strlen(bad[i]), NULL);
        if (got) {
            fprintf(stderr, "%s:%d: %s read as %s\n", __FILE__, __LINE__, bad[i], got);
            cc_test_failures++;
        }
        free(got);
    }
}

static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * n + tl + 1), *p = s;
    memcpy(p, head, hl);
    p += hl;
    for (size_t i = 0; i < n; i++, p += ul) memcpy(p, unit, ul);
    memcpy(p, tail, tl + 1);
    return s;
}

/* Names made to hurt: each is refused (or read) at once, never crashing. */
static void hostile_names(void)
{
    clock_t start = clock();
    /* substitutions that double the text at every step: 2^40 characters */
    char bomb[4096] = "_Z1f1AIiE";
    for (int i = 0; i < 40; i++) {
        /* S<seq-id>_ (base 36) names candidate seq-id + 1: the A<...> of the level before */
        static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        char sub[16];
        if (i < 36) snprintf(sub, sizeof sub, "S%c_", digits[i]);
        else snprintf(sub, sizeof sub, "S%c%c_", digits[i / 36], digits[i % 36]);
        size_t at = strlen(bomb);
        snprintf(bomb + at, sizeof bomb - at, "S_I%s%sE", sub, sub);
    }
    int too_large = 0;
    CHECK(cc_itanium_demangle(bomb, strlen(bomb), &too_large) == NULL && too_large);
    char *s = cc_demangle_alloc(bomb);
    CHECK(s == NULL);
    free(s);
    /* 30 doublings in 309 characters: within the runtime's length limit, and it would print for
     * minutes (2^30 copies); refused as too large before it is asked */
    bomb[9 + 30 * 10] = '\0';
    CHECK(strlen(bomb) < 1024);
    s = cc_demangle_alloc(bomb);
    CHECK(s == NULL);
    free(s);

    char *deep[] = {repeat("_Z1f", "P", 200000, "i"), repeat("_Z", "N", 200000, "1aE"),
                    repeat("_Z1f", "A1_", 100000, "i"), repeat("_Z1fIJ", "J", 50000, "EEv"),
                    repeat("_Z1f", "1AI", 100000, "i"), repeat("_Z1fI", "Li1E", 50000, "EvDpT_"),
                    repeat("_Z1f", "FPvv", 50000, "E"), repeat("_Z", "9123456789", 50000, "")};
    /* A reference whose target resolves back to itself through a substitution (found by
     * fuzz_cubin_vars: this 23-byte name hung the reference-collapsing loop): refused. */
    static const char cycle[] = "_Z4f\322RNIOT_EPd7L45jj\333_n";
    s = cc_demangle_alloc(cycle);
    CHECK(s == NULL);
    free(s);
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        char *r = cc_demangle_alloc(deep[i]);
        CHECK(r == NULL || strlen(r) < ((size_t)1 << 20) + 1);
        free(r);
        free(deep[i]);
    }
    CHECK((double)(clock() - start) / CLOCKS_PER_SEC < 10.0);
}

static void cache(void)
{
    cc_demangle_cache *c = cc_demangle_cache_new();
    CHECK(c != NULL);
    if (!c) return;
    char name[64];
    snprintf(name, sizeof name, "%s", "_Z9oob_writePfi");
    const char *a = cc_demangle_cached(c, name);
    CHECK_STR(a, "oob_write(float*, int)");
    memset(name, 'x', sizeof name - 1); /* the cache keeps its own copy */
    char again[] = "_Z9oob_writePfi";
    CHECK(cc_demangle_cached(c, again) == a);
    CHECK_STR(a, "oob_write(float*, int)");
    CHECK_STR(cc_demangle_cached(c, "triton_poi_fused_add_0"), "triton_poi_fused_add_0");
    CHECK_STR(cc_demangle_cached(c, "_Zbogus"), "_Zbogus");
    CHECK_STR(cc_demangle_cached(c, k_long_mangled), k_long_shown);
    CHECK_EQ_U64(cc_demangle_cache_size(c), 4);
    CHECK(cc_demangle_cached(c, "triton_poi_fused_add_0") == cc_demangle_cached(c, "triton_poi_fused_add_0"));
    CHECK_EQ_U64(cc_demangle_cache_size(c), 4);
    CHECK_STR(cc_demangle_cached(c, NULL), "");
    /* many names: every one found again, the same text */
    for (int i = 0; i < 3000; i++) {
        char m[64], want[64];
        snprintf(m, sizeof m, "_Z%dk%dPf", i < 10 ? 2 : i < 100 ? 3 : i < 1000 ? 4 : 5, i);
        snprintf(want, sizeof want, "k%d(float*)", i);
        CHECK_STR(cc_demangle_cached(c, m), want);
    }
    CHECK_EQ_U64(cc_demangle_cache_size(c), 3004);
    CHECK(cc_demangle_cached(c, "_Z9oob_writePfi") == a);
    cc_demangle_cache_free(c);
    CHECK_STR(cc_demangle_cached(NULL, "_Z9oob_writePfi"), "_Z9oob_writePfi");
    cc_demangle_cache_free(NULL);
}

int main(void)
{
    cuda_kernel_names();
    plain_and_unreadable_names();
    long_names();
    agrees_with_runtime();
    hostile_names();
    cache();
    TEST_MAIN_END();
}
