/* Tests of the SARIF 2.1.0 writer: the output is parsed with core/json and checked for the
 * structure SARIF consumers require ($schema, version, runs[0].tool.driver with rules, results
 * with ruleId/ruleIndex/level/message, physical and logical locations, related locations,
 * stacks and properties), for several kinds of findings and for an empty log. */
#include "check.h"
#include "core/json.h"
#include "core/report.h"

#include <stdlib.h>

static cc_json *sarif_of(const cc_finding *const *fs, size_t n) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_write_sarif(m, "memcheck", fs, n);
    fclose(m);
    char err[160] = "";
    cc_json *v = cc_json_parse(buf, len, err, sizeof err);
    if (!v) fprintf(stderr, "SARIF is not valid JSON: %s\n%s\n", err, buf);
    free(buf);
    return v;
}

static const cc_json *path(const cc_json *v, const char *const *keys) {
    for (; v && *keys; keys++) {
        const char *k = *keys;
        if (k[0] == '#') v = cc_json_at(v, (size_t)atoi(k + 1));
        else v = cc_json_get(v, k);
    }
    return v;
}
#define P(v, ...) path((v), (const char *const[]){__VA_ARGS__, NULL})

static uint64_t u64(const cc_json *v) {
    uint64_t u = (uint64_t)-1;
    CHECK(cc_json_u64(v, &u) == 0);
    return u;
}

/* Structure every SARIF log must have; returns the results array. */
static const cc_json *check_log(const cc_json *log, size_t nresults) {
    CHECK(log && log->type == CC_JSON_OBJECT);
    CHECK(cc_json_str(P(log, "$schema")) && strstr(cc_json_str(P(log, "$schema")), "sarif"));
    CHECK_STR(cc_json_str(P(log, "version")), "2.1.0");
    CHECK_EQ_U64(cc_json_size(P(log, "runs")), 1);
    const cc_json *driver = P(log, "runs", "#0", "tool", "driver");
    CHECK_STR(cc_json_str(P(driver, "name")), "cucheck");
    CHECK(cc_json_str(P(driver, "version")) != NULL);
    /* informationUri is optional and only written when the build names a home page */
    const char *uri = cc_json_str(P(driver, "informationUri"));
    CHECK(uri == NULL || strncmp(uri, "https://", 8) == 0);
    const cc_json *rules = P(driver, "rules");
    CHECK(rules && rules->type == CC_JSON_ARRAY);
    for (size_t i = 0; i < cc_json_size(rules); i++) {
        const char *id = cc_json_str(P(rules, "#0", "id"));
        CHECK(id && *id);
        id = cc_json_str(cc_json_get(cc_json_at(rules, i), "id"));
        for (size_t j = 0; j < i; j++) /* rule ids are unique */
            CHECK(strcmp(id, cc_json_str(cc_json_get(cc_json_at(rules, j), "id"))) != 0);
        CHECK(cc_json_str(P(cc_json_at(rules, i), "shortDescription", "text")) != NULL);
    }
    const cc_json *results = P(log, "runs", "#0", "results");
    CHECK(results && results->type == CC_JSON_ARRAY);
    CHECK_EQ_U64(cc_json_size(results), nresults);
    for (size_t i = 0; i < cc_json_size(results); i++) {
        const cc_json *r = cc_json_at(results, i);
        const char *rule = cc_json_str(P(r, "ruleId"));
        uint64_t idx = u64(P(r, "ruleIndex"));
        CHECK(rule && idx < cc_json_size(rules));
        if (rule && idx < cc_json_size(rules))
            CHECK_STR(cc_json_str(P(cc_json_at(rules, idx), "id")), rule);
        const char *level = cc_json_str(P(r, "level"));
        CHECK(level && (!strcmp(level, "error") || !strcmp(level, "warning") || !strcmp(level, "note")));
        const char *text = cc_json_str(P(r, "message", "text"));
        CHECK(text && *text);
    }
    return results;
}

int main(void) {
    /* an empty log */
    cc_json *log = sarif_of(NULL, 0);
    check_log(log, 0);
    CHECK_EQ_U64(cc_json_size(P(log, "runs", "#0", "tool", "driver", "rules")), 0);
    cc_json_free(log);

    cc_stack_frame frames[] = {{0x401000, "main (vecadd.cu:40)"}, {0x402000, NULL}};
    cc_stack_frame aframes[] = {{0x401100, "main (vecadd.cu:31)"}};
    cc_related rel[2];
    memset(rel, 0, sizeof rel);
    rel[0].role = "allocation";
    rel[0].message = "1024 bytes";
    rel[0].has_device = 1;
    rel[0].device.valid = CC_DLOC_LINE;
    rel[0].device.file = "alloc.cu";
    rel[0].device.line = 31;
    rel[0].nframes = 1;
    rel[0].frames = aframes;
    rel[1].role = "sample";
    rel[1].has_device = 1;
    rel[1].device.valid = CC_DLOC_THREAD;
    rel[1].device.thread[0] = 77;

    cc_finding a;
    memset(&a, 0, sizeof a);
    a.tool = "memcheck";
    a.kind = "invalid-global-write";
    a.severity = CC_SEV_ERROR;
    a.message = "Address 0x7f0000000410 is 16 bytes after the nearest allocation";
    a.has_device = 1;
    a.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_LINE | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    a.device.kernel = "add(float const*, float*, int)";
    a.device.kernel_mangled = "_Z3addPKfPfi";
    a.device.pc = 0x1f0;
    a.device.file = "/home/user/my dir/vecadd.cu";
    a.device.line = 12;
    a.device.block[0] = 3;
    a.device.thread[0] = 256;
    a.device.address = 0x7f0000000410ull;
    a.device.size = 4;
    a.device.access = CC_ACCESS_WRITE;
    a.device.space = CC_SPACE_GLOBAL;
    a.nframes = 2;
    a.frames = frames;
    a.nrelated = 2;
    a.related = rel;
    a.count = 12;

    cc_finding b; /* API-level warning: no device location at all */
    memset(&b, 0, sizeof b);
    b.tool = "memcheck";
    b.kind = "api-error";
    b.severity = CC_SEV_WARNING;
    b.message = "cudaFree returned \"invalid argument\"";
    b.nframes = 1;
    b.frames = frames;

    cc_finding c = a; /* same kind again, kernel but no line, info severity */
    c.severity = CC_SEV_INFO;
    c.device.valid = CC_DLOC_KERNEL;
    c.device.kernel = "plain_c_kernel"; /* extern "C": no mangled form */
    c.device.kernel_mangled = NULL;
    c.nrelated = 0;
    c.nframes = 0;
    c.count = 1;

    const cc_finding *fs[] = {&a, &b, &c};
    log = sarif_of(fs, 3);
    const cc_json *results = check_log(log, 3);
    const cc_json *rules = P(log, "runs", "#0", "tool", "driver", "rules");
    CHECK_EQ_U64(cc_json_size(rules), 2); /* one rule per kind */

    const cc_json *ra = cc_json_at(results, 0);
    CHECK_STR(cc_json_str(P(ra, "ruleId")), "invalid-global-write");
    CHECK_STR(cc_json_str(P(ra, "level")), "error");
    CHECK(strstr(cc_json_str(P(ra, "message", "text")), "16 bytes after") != NULL);
    const cc_json *loc = P(ra, "locations", "#0");
    CHECK_STR(cc_json_str(P(loc, "physicalLocation", "artifactLocation", "uri")),
              "file:///home/user/my%20dir/vecadd.cu");
    CHECK_EQ_U64(u64(P(loc, "physicalLocation", "region", "startLine")), 12);
    CHECK_STR(cc_json_str(P(loc, "logicalLocations", "#0", "fullyQualifiedName")),
              "add(float const*, float*, int)");
    CHECK_STR(cc_json_str(P(loc, "logicalLocations", "#0", "decoratedName")), "_Z3addPKfPfi");
    CHECK_STR(cc_json_str(P(ra, "properties", "device", "kernel_mangled")), "_Z3addPKfPfi");
    /* related: the allocation (the sample is a property, not a place) */
    CHECK_EQ_U64(cc_json_size(P(ra, "relatedLocations")), 1);
    CHECK(strstr(cc_json_str(P(ra, "relatedLocations", "#0", "message", "text")), "allocation") != NULL);
    CHECK_STR(cc_json_str(P(ra, "relatedLocations", "#0", "physicalLocation", "artifactLocation", "uri")),
              "alloc.cu");
    CHECK_EQ_U64(u64(P(ra, "relatedLocations", "#0", "physicalLocation", "region", "startLine")), 31);
    /* stacks: the launch's host stack and the allocation's */
    CHECK_EQ_U64(cc_json_size(P(ra, "stacks")), 2);
    CHECK_EQ_U64(cc_json_size(P(ra, "stacks", "#0", "frames")), 2);
    CHECK_STR(cc_json_str(P(ra, "stacks", "#0", "frames", "#0", "location", "message", "text")),
              "main (vecadd.cu:40)");
    CHECK_EQ_U64(u64(P(ra, "stacks", "#0", "frames", "#1", "location", "physicalLocation", "address",
                       "absoluteAddress")),
                 0x402000);
    /* properties */
    const cc_json *props = P(ra, "properties");
    CHECK_EQ_U64(u64(P(props, "count")), 12);
    CHECK_EQ_U64(u64(P(props, "thread", "#0")), 256);
    CHECK_EQ_U64(u64(P(props, "block", "#0")), 3);
    CHECK_EQ_U64(u64(P(props, "address")), 0x7f0000000410ull);
    CHECK_EQ_U64(u64(P(props, "samples", "#0", "thread", "#0")), 77);
    CHECK(cc_json_str(P(ra, "partialFingerprints", "cucheckDedupKey/v1")) != NULL);

    const cc_json *rb = cc_json_at(results, 1);
    CHECK_STR(cc_json_str(P(rb, "level")), "warning");
    CHECK_STR(cc_json_str(P(rb, "message", "text")), "cudaFree returned \"invalid argument\"");
    CHECK(P(rb, "locations") == NULL);
    CHECK_EQ_U64(u64(P(rb, "ruleIndex")), 1);
    CHECK_EQ_U64(cc_json_size(P(rb, "stacks")), 1);

    const cc_json *rc = cc_json_at(results, 2);
    CHECK_STR(cc_json_str(P(rc, "level")), "note");
    CHECK_EQ_U64(u64(P(rc, "ruleIndex")), 0);
    CHECK(P(rc, "locations", "#0", "physicalLocation") == NULL);
    CHECK_STR(cc_json_str(P(rc, "locations", "#0", "logicalLocations", "#0", "kind")), "function");
    CHECK_STR(cc_json_str(P(rc, "locations", "#0", "logicalLocations", "#0", "fullyQualifiedName")),
              "plain_c_kernel");
    CHECK(P(rc, "locations", "#0", "logicalLocations", "#0", "decoratedName") == NULL);
    CHECK(P(rc, "stacks") == NULL);
    cc_json_free(log);
    TEST_MAIN_END();
}
