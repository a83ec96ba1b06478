/* Tests of core/json: the parser on valid and broken input (depth limit, escapes, UTF-8,
 * truncation, exact 64-bit integers) and the string writer on weird strings (quotes, control
 * characters, invalid UTF-8), checked by parsing the writer's output back. */
#include "check.h"
#include "core/json.h"

#include <stdlib.h>
#include <string.h>

static cc_json *parse(const char *s) {
    char err[128];
    return cc_json_parse(s, strlen(s), err, sizeof err);
}

static int rejects(const char *s) {
    char err[128] = "";
    cc_json *v = cc_json_parse(s, strlen(s), err, sizeof err);
    if (v) {
        cc_json_free(v);
        fprintf(stderr, "accepted bad JSON: %s\n", s);
        return 0;
    }
    return err[0] != '\0'; /* a message must explain the error */
}

/* Write s with the writer, return the malloc'd output. */
static char *write_str(const char *s) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_json_write_str(m, s);
    fclose(m);
    return buf;
}

static void test_valid(void) {
    cc_json *v = parse(" {\"a\": [1, -2.5, 3e2, true, false, null], \"b\": {\"c\": \"d\"}, \"a2\": {}} ");
    CHECK(v && v->type == CC_JSON_OBJECT);
    const cc_json *a = cc_json_get(v, "a");
    CHECK_EQ_U64(cc_json_size(a), 6);
    CHECK(cc_json_at(a, 0)->is_u64 && cc_json_at(a, 0)->u64 == 1);
    CHECK(cc_json_at(a, 1)->number == -2.5 && !cc_json_at(a, 1)->is_u64);
    CHECK(cc_json_at(a, 2)->number == 300.0 && !cc_json_at(a, 2)->is_u64);
    CHECK(cc_json_at(a, 3)->type == CC_JSON_TRUE);
    CHECK(cc_json_at(a, 4)->type == CC_JSON_FALSE);
    CHECK(cc_json_at(a, 5)->type == CC_JSON_NULL);
    CHECK(cc_json_at(a, 6) == NULL);
    CHECK_STR(cc_json_str(cc_json_get(cc_json_get(v, "b"), "c")), "d");
    CHECK(cc_json_get(v, "missing") == NULL);
    CHECK_EQ_U64(cc_json_size(cc_json_get(v, "a2")), 0);
    cc_json_free(v);

    v = parse("[18446744073709551615, 18446744073709551616, \"0x7f0000000410\", \"42\", \"0x\", \"-1\", \"\\t5\", \"5 \"]");
    CHECK(v != NULL);
    uint64_t u = 0;
    CHECK(cc_json_u64(cc_json_at(v, 0), &u) == 0 && u == UINT64_MAX);
    CHECK(cc_json_u64(cc_json_at(v, 1), &u) != 0); /* does not fit */
    CHECK(cc_json_u64(cc_json_at(v, 2), &u) == 0 && u == 0x7f0000000410ull);
    CHECK(cc_json_u64(cc_json_at(v, 3), &u) == 0 && u == 42);
    CHECK(cc_json_u64(cc_json_at(v, 4), &u) != 0);
    CHECK(cc_json_u64(cc_json_at(v, 5), &u) != 0);
    CHECK(cc_json_u64(cc_json_at(v, 6), &u) != 0);
    CHECK(cc_json_u64(cc_json_at(v, 7), &u) != 0);
    cc_json_free(v);

    /* escapes, surrogate pairs, lone surrogates, embedded NUL */
    v = parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 \\ud800x \\u0000z\"");
    CHECK(v && v->type == CC_JSON_STRING);
    if (v) {
        const char want[] = "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xf0\x9f\x98\x80 \xef\xbf\xbdx \0z";
        CHECK_EQ_U64(v->len, sizeof want - 1);
        CHECK(memcmp(v->str, want, sizeof want - 1) == 0);
    }
    cc_json_free(v);

    /* duplicate keys: the last one wins */
    v = parse("{\"k\":1,\"k\":2}");
    CHECK(v && cc_json_get(v, "k")->u64 == 2);
    cc_json_free(v);
}

static void test_invalid(void) {
    CHECK(rejects(""));
    CHECK(rejects("   "));
    CHECK(rejects("{"));
    CHECK(rejects("{\"a\":1"));
    CHECK(rejects("{\"a\" 1}"));
    CHECK(rejects("{\"a\":1,}"));
    CHECK(rejects("[1,]"));
    CHECK(rejects("[1 2]"));
    CHECK(rejects("{1:2}"));
    CHECK(rejects("\"abc"));
    CHECK(rejects("\"a\\x\""));
    CHECK(rejects("\"\\u12\""));
    CHECK(rejects("\"\\u12g4\""));
    CHECK(rejects("\"tab\there\""));
    CHECK(rejects("\"bad \xff utf8\""));
    CHECK(rejects("\"overlong \xc0\xaf\""));
    CHECK(rejects("\"surrogate \xed\xa0\x80\""));
    CHECK(rejects("01"));
    CHECK(rejects("-"));
    CHECK(rejects("1."));
    CHECK(rejects("1e"));
    CHECK(rejects("+1"));
    CHECK(rejects("tru"));
    CHECK(rejects("nul"));
    CHECK(rejects("{} {}"));
    CHECK(rejects("[1] x"));
    /* a NUL byte inside the buffer is not whitespace */
    char err[64];
    CHECK(cc_json_parse("{}\0", 3, err, sizeof err) == NULL);
    /* not NUL-terminated: the parser must stay inside len */
    char buf[4] = {'[', '1', ']', 'x'};
    cc_json *v = cc_json_parse(buf, 3, err, sizeof err);
    CHECK(v && cc_json_size(v) == 1);
    cc_json_free(v);
    CHECK(cc_json_parse(buf, 2, err, sizeof err) == NULL);
}

static void test_depth(void) {
    char deep[CC_JSON_MAX_DEPTH * 2 + 8];
    size_t k = 0;
    for (int i = 0; i < CC_JSON_MAX_DEPTH; i++) deep[k++] = '[';
    for (int i = 0; i < CC_JSON_MAX_DEPTH; i++) deep[k++] = ']';
    cc_json *v = cc_json_parse(deep, k, NULL, 0);
    CHECK(v != NULL); /* exactly at the limit */
    cc_json_free(v);
    k = 0;
    for (int i = 0; i < CC_JSON_MAX_DEPTH + 1; i++) deep[k++] = '[';
    for (int i = 0; i < CC_JSON_MAX_DEPTH + 1; i++) deep[k++] = ']';
    char err[128] = "";
    CHECK(cc_json_parse(deep, k, err, sizeof err) == NULL);
    CHECK(strstr(err, "nesting") != NULL);
    /* a very deep unbalanced input must not blow the stack */
    size_t big = 1u << 20;
    char *b = malloc(big);
    memset(b, '[', big);
    CHECK(cc_json_parse(b, big, err, sizeof err) == NULL);
    memset(b, '{', big);
    CHECK(cc_json_parse(b, big, err, sizeof err) == NULL);
    free(b);
}

static void roundtrip(const char *in, const char *expect) {
    char *w = write_str(in);
    cc_json *v = cc_json_parse(w, strlen(w), NULL, 0);
    CHECK(v && v->type == CC_JSON_STRING);
    if (v) CHECK_STR(v->str, expect);
    /* the output itself must be plain: no raw control characters */
    for (const char *p = w; *p; p++) CHECK((unsigned char)*p >= 0x20);
    cc_json_free(v);
    free(w);
}

static void test_writer(void) {
    roundtrip("plain", "plain");
    roundtrip("say \"hi\" \\ back/slash", "say \"hi\" \\ back/slash");
    roundtrip("line1\nline2\r\ttab\b\f", "line1\nline2\r\ttab\b\f");
    roundtrip("\x01\x02\x1f\x7f", "\x01\x02\x1f\x7f");
    roundtrip("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    /* invalid UTF-8 bytes become U+FFFD, one per bad byte */
    roundtrip("a\xffz", "a\xef\xbf\xbdz");
    roundtrip("\xc3", "\xef\xbf\xbd");                    /* truncated sequence at the end */
    roundtrip("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");    /* overlong */
    roundtrip("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* UTF-16 surrogate */
    roundtrip("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* > U+10FFFF */
    char *w = write_str(NULL);
    CHECK_STR(w, "null");
    free(w);
    w = write_str("x\"y");
    CHECK_STR(w, "\"x\\\"y\"");
    free(w);

    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    uint32_t d[3] = {1, 2, 4294967295u};
    cc_json_write_hex(m, 0xdeadbeefcafef00dull);
    fputc(' ', m);
    cc_json_write_dim3(m, d);
    fclose(m);
    CHECK_STR(buf, "\"0xdeadbeefcafef00d\" [1,2,4294967295]");
    free(buf);
}

int main(void) {
    test_valid();
    test_invalid();
    test_depth();
    test_writer();
    TEST_MAIN_END();
}
