/* Tests of cc_expand_report_name: %p, %q{VAR} (set, unset, empty name), %%, unknown %x kept,
 * a trailing %, and errors for unterminated %q{ and results that do not fit. */
#include "check.h"
#include "core/report.h"

#include <stdlib.h>

int main(void) {
    char out[64];
    setenv("CC_TEST_RANK", "3", 1);
    unsetenv("CC_TEST_UNSET");
    CHECK(cc_expand_report_name("report.%p.jsonl", 4242, out, sizeof out) == 0);
    CHECK_STR(out, "report.4242.jsonl");
    CHECK(cc_expand_report_name("r%q{CC_TEST_RANK}-%p", 7, out, sizeof out) == 0);
    CHECK_STR(out, "r3-7");
    CHECK(cc_expand_report_name("r%q{CC_TEST_UNSET}.x", 7, out, sizeof out) == 0);
    CHECK_STR(out, "r.x");
    CHECK(cc_expand_report_name("a%q{}b", 7, out, sizeof out) == 0);
    CHECK_STR(out, "ab");
    CHECK(cc_expand_report_name("100%% %p%%", 1, out, sizeof out) == 0);
    CHECK_STR(out, "100% 1%");
    CHECK(cc_expand_report_name("keep %x and %q alone %", 1, out, sizeof out) == 0);
    CHECK_STR(out, "keep %x and %q alone %");
    CHECK(cc_expand_report_name("", 1, out, sizeof out) == 0);
    CHECK_STR(out, "");

    CHECK(cc_expand_report_name("r%q{CC_TEST_RANK", 7, out, sizeof out) == -1);
    /* fits exactly: 5 characters in 6 bytes */
    char small[6];
    CHECK(cc_expand_report_name("ab%p", 123, small, sizeof small) == 0);
    CHECK_STR(small, "ab123");
    CHECK(cc_expand_report_name("ab%p", 1234, small, sizeof small) == -1);
    CHECK(small[sizeof small - 1] == '\0' || strlen(small) < sizeof small);
    CHECK(cc_expand_report_name("abcdef", 1, small, sizeof small) == -1);
    setenv("CC_TEST_LONG", "0123456789", 1);
    CHECK(cc_expand_report_name("%q{CC_TEST_LONG}", 1, small, sizeof small) == -1);
    CHECK(cc_expand_report_name("x", 1, small, 0) == -1);
    CHECK(cc_expand_report_name(NULL, 1, out, sizeof out) == -1);
    TEST_MAIN_END();
}
