/* doctor's agent checks without a GPU: reading the injection test's output (loader log, agent
 * lines, report notes) into what happened, and finding other tools clients in the environment
 * (cucheck's own agent never counts). */
#include <stdio.h>
#include <string.h>

#include "doctor/probe.h"

static int failures;
#define CHECK(c)                                                                 \
    do {                                                                         \
        if (!(c)) {                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static const char ld_log[] =
    "     12345:\tcalling init: /opt/cucheck/lib/cucheck/libcucheck_agent.so\n"
    "     12345:\tcalling init: /opt/cuda/compute-sanitizer/libsanitizer-public.so\n";

static void test_no_driver(void)
{
    cc_doc_injection t = {.tool = "run"};
    cc_doc_parse_injection(
        "cuda-probe: no CUDA driver (libcuda.so.1) could be loaded: libcuda.so.1: cannot open "
        "shared object file: No such file or directory\n"
        "========= no CUDA driver (libcuda.so.1) could be loaded: libcuda.so.1: cannot open "
        "shared object file: No such file or directory; every CUDA call ...\n",
        ld_log, 1, &t);
    CHECK(t.agent_loaded && t.reports == 1 && t.no_driver && !t.driver_used && !t.conflict);
    CHECK(strcmp(t.backend_lib, "/opt/cuda/compute-sanitizer/libsanitizer-public.so") == 0);
    CHECK(strstr(t.message, "cannot open shared object file") != NULL);
    CHECK(t.contexts == -1);
}

static void test_working(void)
{
    cc_doc_injection t = {.tool = "run"};
    cc_doc_parse_injection("cuda-probe: cuInit ok, 1 GPU(s), context and allocation on GPU 0: "
                           "ok (0)\n========= run: tracked 1 context(s), 0 module(s), 0 kernel "
                           "launch(es)\n", ld_log, 1, &t);
    CHECK(t.driver_used && t.contexts == 1 && !t.no_driver && t.message[0] == 0);
}

static void test_conflict_and_preload(void)
{
    cc_doc_injection t = {.tool = "run"};
    cc_doc_parse_injection("cucheck: cannot attach: another CUDA tools-API client "
                           "(compute-sanitizer, Nsight, a profiler) is active; the program runs "
                           "unchecked (try 'cucheck doctor')\n", ld_log, 0, &t);
    CHECK(t.conflict && strncmp(t.message, "cannot attach", 13) == 0);
    cc_doc_injection p = {.tool = "run"};
    cc_doc_parse_injection("ERROR: ld.so: object '/x/libcucheck_agent.so' from LD_PRELOAD cannot "
                           "be preloaded (libsanitizer-public.so: cannot open shared object "
                           "file): ignored.\n", "", 0, &p);
    CHECK(p.preload_failed && !p.agent_loaded && strstr(p.message, "libsanitizer") != NULL);
    cc_doc_injection c = {.tool = "profile"};
    cc_doc_parse_injection("cucheck: cannot profile: CUPTI is already in use by nsys (one CUPTI "
                           "client per process)\n",
                           "1:\tcalling init: /nonexistent/cuda/lib64/libcupti.so.13\n", 0, &c);
    CHECK(c.conflict && strcmp(c.backend_lib, "/nonexistent/cuda/lib64/libcupti.so.13") == 0);
    CHECK(strncmp(c.message, "cannot profile", 14) == 0);
}

static void test_clients(void)
{
    cc_doc_agent a;
    memset(&a, 0, sizeof a);
    CHECK(cc_doc_find_clients(NULL, NULL, NULL, "/x/libcucheck_agent.so", &a) == 0);
    CHECK(cc_doc_find_clients("/x/libcucheck_agent.so", "",
                              "/x/libcucheck_agent.so:libjemalloc.so", "/x/libcucheck_agent.so",
                              &a) == 0);
    CHECK(cc_doc_find_clients("/opt/nvidia/nsight-systems/lib/libToolsInjection64.so", NULL,
                              "/usr/lib/libtcmalloc.so "
                              "/opt/nsight-compute/libTreeLauncherPlaceholder.so",
                              "/x/libcucheck_agent.so", &a) == 2);
    CHECK(a.nclients == 2);
    CHECK(strcmp(a.clients[0].variable, "CUDA_INJECTION64_PATH") == 0 &&
          strcmp(a.clients[0].tool, "Nsight Systems") == 0);
    CHECK(strcmp(a.clients[1].variable, "LD_PRELOAD") == 0 &&
          strstr(a.clients[1].value, "libTreeLauncherPlaceholder") != NULL);
    CHECK(cc_doc_find_clients(NULL, "/home/u/libmy_nvtx_tool.so", NULL, NULL, &a) == 1);
    CHECK(strcmp(a.clients[2].variable, "NVTX_INJECTION64_PATH") == 0);
}

int main(void)
{
    test_no_driver();
    test_working();
    test_conflict_and_preload();
    test_clients();
    if (failures)
        return 1;
    printf("test_doctor_agent: ok\n");
    return 0;
}
