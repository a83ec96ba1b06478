/* Tests of core/options: parsing encoded lists, set/replace, order, encoding round trip, and
 * rejection of malformed lines, bad names and values with newlines. */
#include "check.h"
#include "core/options.h"

#include <stdlib.h>

int main(void) {
    cc_options *o = cc_options_parse(NULL);
    CHECK(o && cc_options_count(o) == 0);
    cc_options_free(o);
    o = cc_options_parse("");
    CHECK(o && cc_options_count(o) == 0);
    char *enc = cc_options_encode(o);
    CHECK_STR(enc, "");
    free(enc);
    cc_options_free(o);

    o = cc_options_parse("mode=full\nprint-limit=10\n\nempty=\nexpr=a=b\r\nmode=fast");
    CHECK(o != NULL);
    CHECK_EQ_U64(cc_options_count(o), 4);
    CHECK_STR(cc_options_get(o, "mode"), "fast"); /* a later line replaces */
    CHECK_STR(cc_options_get(o, "print-limit"), "10");
    CHECK_STR(cc_options_get(o, "empty"), "");
    CHECK_STR(cc_options_get(o, "expr"), "a=b"); /* the first '=' splits */
    CHECK(cc_options_get(o, "absent") == NULL);
    CHECK(cc_options_get(o, NULL) == NULL);
    CHECK_STR(cc_options_name_at(o, 0), "mode");
    CHECK_STR(cc_options_name_at(o, 1), "print-limit");
    CHECK_STR(cc_options_name_at(o, 3), "expr");
    CHECK(cc_options_name_at(o, 4) == NULL);

    CHECK(cc_options_set(o, "leak-check", "full") == 0);
    CHECK(cc_options_set(o, "mode", "sample") == 0);
    CHECK_EQ_U64(cc_options_count(o), 5);
    CHECK(cc_options_set(o, "", "x") != 0);
    CHECK(cc_options_set(o, "a=b", "x") != 0);
    CHECK(cc_options_set(o, "a\nb", "x") != 0);
    CHECK(cc_options_set(o, NULL, "x") != 0);
    CHECK(cc_options_set(o, "x", NULL) != 0);
    CHECK_EQ_U64(cc_options_count(o), 5);

    enc = cc_options_encode(o);
    CHECK_STR(enc, "mode=sample\nprint-limit=10\nempty=\nexpr=a=b\nleak-check=full\n");
    cc_options *back = cc_options_parse(enc);
    CHECK(back && cc_options_count(back) == 5);
    for (size_t i = 0; back && i < cc_options_count(o); i++) {
        CHECK_STR(cc_options_name_at(back, i), cc_options_name_at(o, i));
        CHECK_STR(cc_options_get(back, cc_options_name_at(o, i)),
                  cc_options_get(o, cc_options_name_at(o, i)));
    }
    cc_options_free(back);
    free(enc);

    /* a value with a newline is kept but cannot be encoded */
    CHECK(cc_options_set(o, "bad", "two\nlines") == 0);
    CHECK(cc_options_encode(o) == NULL);
    cc_options_free(o);

    CHECK(cc_options_parse("novalue") == NULL);
    CHECK(cc_options_parse("a=1\nbroken\n") == NULL);
    CHECK(cc_options_parse("=value") == NULL);
    cc_options_free(NULL);
    TEST_MAIN_END();
}
