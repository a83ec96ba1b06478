/* The second run's decisions on findings (tools/async_error/rerun.h): which first `async-error`
 * findings it is for (candidate launches, nodes of a graph launch; not an exact finding, not a
 * list cut short), the agent's launch list (ids and the hash the agent compares), every verdict
 * (named; time limit, interrupted, not started, no report, no error, another error, marks that
 * left several, a launch that is not a candidate, a graph launch named without its node) and
 * the rewritten findings. tests/cli/cli_rerun.sh runs the whole thing with a fake program. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "core/hash.h"
#include "tools/async_error/rerun.h"

#define ERR700 "cudaErrorIllegalAddress (700) surfaced in cudaDeviceSynchronize"

static cc_related launch_rel(const char *role, uint64_t id, const char *shown,
                             const char *mangled, const char *msg)
{
    cc_related r;
    memset(&r, 0, sizeof r);
    r.role = role;
    r.message = msg;
    r.has_device = 1;
    r.device.valid = CC_DLOC_KERNEL;
    r.device.kernel = shown;
    r.device.kernel_mangled = mangled;
    r.device.launch_id = id;
    return r;
}

static cc_finding async_error(const char *msg, const cc_related *rel, uint32_t n)
{
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "run";
    f.kind = "async-error";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.related = rel;
    f.nrelated = n;
    return f;
}

static cc_related four[4];
static cc_finding first;

static void make_first(void)
{
    four[0] = launch_rel("candidate launch", 4, "k3(float*)", "_Z2k3Pf", "launch #4 of k3");
    four[1] = launch_rel("candidate launch", 3, "k2(float*)", "_Z2k2Pf", "launch #3 of k2");
    four[2] = launch_rel("candidate launch", 2, "k1", NULL, "launch #2 of k1");
    four[3] = launch_rel("candidate launch", 1, "k0", NULL, "launch #1 of k0");
    first = async_error(ERR700 "; 4 launches were in flight" CC_ASYNC_TEXT_PROGRESS_HINT, four, 4);
}

static void test_plan(void)
{
    cc_rerun_plan p;
    char why[256];
    CHECK(cc_rerun_plan_make(&first, &p, why, sizeof why) == 1);
    CHECK_EQ_U64(p.n, 4);
    CHECK(!p.graph);
    CHECK_STR(p.error, ERR700);
    CHECK_EQ_U64(p.launches[1].launch_id, 3);
    CHECK_STR(p.launches[1].kernel, "_Z2k2Pf"); /* the binary's name */
    CHECK_STR(p.launches[2].kernel, "k1");      /* extern "C": shown as is */
    CHECK_EQ_U64(p.launches[1].kernel_hash, cc_hash_str("_Z2k2Pf"));

    char list[256];
    CHECK(cc_rerun_launch_list(&p, 4242, list, sizeof list) == 0);
    char want[256];
    snprintf(want, sizeof want, "4242/4:%016llx,3:%016llx,2:%016llx,1:%016llx",
             (unsigned long long)cc_hash_str("_Z2k3Pf"), (unsigned long long)cc_hash_str("_Z2k2Pf"),
             (unsigned long long)cc_hash_str("k1"), (unsigned long long)cc_hash_str("k0"));
    CHECK_STR(list, want);
    CHECK(cc_rerun_launch_list(&p, 4242, list, 20) == -1); /* does not fit */

    /* exact already: nothing to narrow, nothing to say */
    cc_related one = launch_rel("faulting launch", 3, "k2", NULL, "launch #3 of k2");
    cc_finding exact = async_error(ERR700 "; caused by launch #3 of k2", &one, 1);
    CHECK(cc_rerun_plan_make(&exact, &p, why, sizeof why) == 0 && why[0] == '\0');
    /* another kind */
    cc_finding api = first;
    api.kind = "api-error";
    CHECK(cc_rerun_plan_make(&api, &p, why, sizeof why) == 0 && why[0] == '\0');
    /* a list cut short: the marks would leave the unlisted launches unknown */
    cc_finding cut = async_error(ERR700 "; 20 launches ... newest first" CC_ASYNC_TEXT_NOT_SHOWN,
                                 four, 4);
    CHECK(cc_rerun_plan_make(&cut, &p, why, sizeof why) == 0);
    CHECK(strstr(why, "more launches were in flight") != NULL);
    cc_finding forgot = async_error(ERR700 "; ... (9 " CC_ASYNC_TEXT_FORGOTTEN ")", four, 4);
    CHECK(cc_rerun_plan_make(&forgot, &p, why, sizeof why) == 0 && why[0] != '\0');
    /* a candidate without a launch id */
    cc_related noid[2] = {four[0], four[1]};
    noid[1].device.launch_id = 0;
    cc_finding bad = async_error(ERR700 "; 2 launches", noid, 2);
    CHECK(cc_rerun_plan_make(&bad, &p, why, sizeof why) == 0 && why[0] != '\0');
}

static cc_related graph_rel[4];
static cc_finding graph_first;

static void make_graph(void)
{
    graph_rel[0] = launch_rel("faulting launch", 5, "(graph)", NULL, "graph launch #5");
    graph_rel[1] = launch_rel("candidate node", 8, "node_c", NULL, "launch #8 of node_c");
    graph_rel[2] = launch_rel("candidate node", 7, "node_b", NULL, "launch #7 of node_b");
    graph_rel[3] = launch_rel("candidate node", 6, "node_a", NULL, "launch #6 of node_a");
    graph_first = async_error("cudaErrorIllegalAddress (700) surfaced in cudaStreamSynchronize; "
                              "caused by graph launch #5",
                              graph_rel, 4);
}

static int verdict(const cc_rerun_plan *p, cc_rerun_end end, int reported,
                   const cc_finding *err, char *why, size_t n)
{
    cc_rerun_outcome o = {.end = end, .limit_s = 12.0, .reported = reported, .error = err};
    return cc_rerun_verdict(p, &o, why, n);
}

static void test_verdicts(void)
{
    cc_rerun_plan p;
    char why[512];
    CHECK(cc_rerun_plan_make(&first, &p, why, sizeof why) == 1);
    cc_related named = launch_rel("faulting launch", 3, "k2(float*)", "_Z2k2Pf", "launch #3");
    cc_finding second = async_error(ERR700 "; caused by launch #3 of k2", &named, 1);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &second, why, sizeof why) == 1);

    CHECK(verdict(&p, CC_RERUN_TIMED_OUT, 0, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "did not end within 12 s") != NULL);
    CHECK(verdict(&p, CC_RERUN_INTERRUPTED, 0, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "interrupted") != NULL);
    CHECK(verdict(&p, CC_RERUN_NOT_STARTED, 0, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "could not be started") != NULL);
    CHECK(verdict(&p, CC_RERUN_ENDED, 0, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "wrote no report") != NULL);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "without an asynchronous error") != NULL);

    /* the same launch, but another error or another call */
    cc_finding other = async_error("cudaErrorLaunchFailure (719) surfaced in "
                                   "cudaDeviceSynchronize; caused by launch #3", &named, 1);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &other, why, sizeof why) == -1);
    CHECK(strstr(why, "failed differently (cudaErrorLaunchFailure (719)") != NULL);
    cc_finding call = async_error("cudaErrorIllegalAddress (700) surfaced in cudaMemcpy; x",
                                  &named, 1);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &call, why, sizeof why) == -1);

    /* marks that left two */
    cc_related two[2] = {four[0], four[1]};
    cc_finding left = async_error(ERR700 "; 2 launches in flight were not ruled out", two, 2);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &left, why, sizeof why) == -1);
    CHECK(strstr(why, "left 2 launches") != NULL);

    /* a launch that is no candidate: another id, or the same id of another kernel */
    cc_related moved = launch_rel("faulting launch", 5, "k2(float*)", "_Z2k2Pf", "launch #5");
    cc_finding shifted = async_error(ERR700 "; caused by launch #5 of k2", &moved, 1);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &shifted, why, sizeof why) == -1);
    CHECK(strstr(why, "launch #5 of k2(float*), which is not one of the candidates") != NULL);
    cc_related swapped = launch_rel("faulting launch", 3, "k1", NULL, "launch #3 of k1");
    cc_finding renamed = async_error(ERR700 "; caused by launch #3 of k1", &swapped, 1);
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &renamed, why, sizeof why) == -1);

    /* graph: the node named beside its graph launch; the graph launch alone is not enough */
    cc_rerun_plan g;
    CHECK(cc_rerun_plan_make(&graph_first, &g, why, sizeof why) == 1);
    CHECK(g.graph && g.n == 3 && g.graph_related == 0);
    cc_related node[2] = {launch_rel("faulting launch", 7, "node_b", NULL, "launch #7"),
                          launch_rel("graph launch", 5, "(graph)", NULL, "graph launch #5")};
    cc_finding gnamed = async_error("cudaErrorIllegalAddress (700) surfaced in "
                                    "cudaStreamSynchronize; caused by launch #7", node, 2);
    CHECK(verdict(&g, CC_RERUN_ENDED, 1, &gnamed, why, sizeof why) == 1);
    CHECK(verdict(&g, CC_RERUN_ENDED, 1, &graph_first, why, sizeof why) == -1);
    /* a plain plan is not satisfied by a graph node's answer */
    CHECK(verdict(&p, CC_RERUN_ENDED, 1, &gnamed, why, sizeof why) == -1);
}

static void test_findings(void)
{
    cc_rerun_plan p;
    char why[256];
    CHECK(cc_rerun_plan_make(&first, &p, why, sizeof why) == 1);
    cc_rerun_finding out;
    CHECK(cc_rerun_exact(&first, &p, 1, &out) == 0);
    CHECK_STR(out.f.message, ERR700 "; caused by launch #3 of k2 (named by a second run of the "
                             "program with progress marks on the candidate launches #1, #2, #3, "
                             "#4: the only one that started and did not finish; the program ran "
                             "twice)");
    CHECK_EQ_U64(out.f.nrelated, 1);
    CHECK_STR(out.f.related[0].role, "faulting launch");
    CHECK_EQ_U64(out.f.related[0].device.launch_id, 3);
    CHECK(out.f.has_device && out.f.device.launch_id == 3);
    CHECK_STR(out.f.kind, "async-error");
    cc_rerun_finding_free(&out);
    CHECK(cc_rerun_exact(&first, &p, 9, &out) == -1);

    CHECK(cc_rerun_annotate(&first, "not named", "because", 1, &out) == 0);
    CHECK_STR(out.f.message, ERR700 "; 4 launches were in flight; not named: because");
    CHECK_EQ_U64(out.f.nrelated, 4);
    cc_rerun_finding_free(&out);
    CHECK(cc_rerun_annotate(&first, "not run again", "child", 0, &out) == 0);
    CHECK(strstr(out.f.message, CC_ASYNC_TEXT_PROGRESS_HINT "; not run again: child") != NULL);
    cc_rerun_finding_free(&out);

    cc_rerun_plan g;
    CHECK(cc_rerun_plan_make(&graph_first, &g, why, sizeof why) == 1);
    CHECK(cc_rerun_exact(&graph_first, &g, 1, &out) == 0);
    CHECK(strstr(out.f.message, "caused by launch #7 of node_b of graph launch #5 (named by a "
                                "second run of the program with progress marks on its kernel "
                                "nodes #6, #7, #8") != NULL);
    CHECK_EQ_U64(out.f.nrelated, 2);
    CHECK_STR(out.f.related[0].role, "faulting launch");
    CHECK_STR(out.f.related[1].role, "graph launch");
    CHECK_STR(out.f.device.kernel, "node_b");
    cc_rerun_finding_free(&out);
}

int main(void)
{
    make_first();
    make_graph();
    test_plan();
    test_verdicts();
    test_findings();
    TEST_MAIN_END();
}
