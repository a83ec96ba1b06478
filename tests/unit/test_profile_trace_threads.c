/* The profile trace names every CPU thread, also in a large run: 5,000 API calls of one thread
 * followed by calls of a second thread (a de-duplication cut off after 4,096 entries once named
 * only the first). Also checks that the trace stays valid JSON with both threads' API slices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/json.h"
#include "tools/profile/profile.h"

static void add_api(cc_prof_data *d, uint32_t tid, uint64_t start, uint64_t corr)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_API_CALL;
    ev.h.tid = tid;
    ev.h.timestamp = start;
    ev.u.api_call.start = start;
    ev.u.api_call.end = start + 50;
    ev.u.api_call.api = CC_API_RUNTIME;
    ev.u.api_call.function = "cudaLaunchKernel";
    ev.u.api_call.correlation = corr;
    cc_prof_data_add(d, &ev);
}

int main(void)
{
    cc_prof_data d;
    cc_prof_data_init(&d);
    d.pid = 100;
    uint64_t corr = 1;
    for (int i = 0; i < 5000; i++) add_api(&d, 100, 1000 + 100 * (uint64_t)i, corr++);
    for (int i = 0; i < 3; i++) add_api(&d, 201, 900000 + 100 * (uint64_t)i, corr++);
    add_api(&d, 202, 950000, corr++);
    cc_prof_stats st;
    CHECK(cc_prof_stats_build(&d, &st) == 0);
    cc_prof_stats_free(&st);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) TEST_MAIN_END();
    CHECK(cc_prof_write_trace(f, &d, NULL) == 0);
    fclose(f);

    char err[256];
    const char *arr = buf ? strchr(buf, '{') : NULL;
    cc_json *j = arr ? cc_json_parse(buf, len, err, sizeof err) : NULL;
    CHECK(j != NULL);
    int named[3] = {0, 0, 0}, slices[3] = {0, 0, 0};
    const cc_json *evs = j ? cc_json_get(j, "traceEvents") : NULL;
    for (size_t i = 0; evs && i < cc_json_size(evs); i++) {
        const cc_json *e = cc_json_at(evs, i);
        const char *ph = cc_json_str(cc_json_get(e, "ph"));
        const char *name = cc_json_str(cc_json_get(e, "name"));
        const cc_json *tidv = cc_json_get(e, "tid");
        if (!ph || !name || !tidv || tidv->type != CC_JSON_NUMBER) continue;
        int t = tidv->number == 100 ? 0 : tidv->number == 201 ? 1 : tidv->number == 202 ? 2 : -1;
        if (t < 0) continue;
        if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0) named[t]++;
        if (strcmp(ph, "X") == 0 && strcmp(name, "cudaLaunchKernel") == 0) slices[t]++;
    }
    for (int t = 0; t < 3; t++) CHECK_EQ_U64(named[t], 1);
    CHECK_EQ_U64(slices[0], 5000);
    CHECK_EQ_U64(slices[1], 3);
    CHECK_EQ_U64(slices[2], 1);
    cc_json_free(j);
    free(buf);
    cc_prof_data_free(&d);
    TEST_MAIN_END();
}
