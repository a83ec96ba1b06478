/* instr_classes_test: CUCHECK_PATCH_CLASSES's adjustment of a tool's patched instruction classes
 * (src/agent/instr/instr_floor.c, cc_instr_classes_adjust): a class set to floor keeps its place
 * with its empty function, one set to off is dropped, the others keep the tool's function, and
 * malformed specs are refused with a message and no change (test agent.instr_classes). */
#include "agent/instr/instr_internal.h"
#include "check.h"

static cc_instr_client tool(void)
{
    cc_instr_client c;
    memset(&c, 0, sizeof c);
    c.name = "tool";
    c.classes[0].id = SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS;
    c.classes[0].fn = "tool_global";
    c.classes[1].id = SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS;
    c.classes[1].fn = "tool_shared";
    c.classes[2].id = SANITIZER_INSTRUCTION_BARRIER;
    c.classes[2].fn = "tool_barrier";
    c.classes[3].id = SANITIZER_INSTRUCTION_SYNCWARP_RELEASE;
    c.classes[3].fn = "tool_syncwarp";
    c.nclasses = 4;
    return c;
}

static void test_floor_and_off(void)
{
    cc_instr_client cl = tool(), out;
    char err[256] = "";
    const cc_instr_client *a =
        cc_instr_classes_adjust(&cl, "barrier=floor,syncwarp-release=off", &out, err, sizeof err);
    /* a valid spec is taken */
    CHECK(a == &out);
    if (a == NULL) {
        return;
    }
    /* off drops its class */
    CHECK(a->nclasses == 3);
    /* global keeps the tool's function */
    CHECK(strcmp(a->classes[0].fn, "tool_global") == 0);
    /* shared keeps the tool's function */
    CHECK(strcmp(a->classes[1].fn, "tool_shared") == 0);
    /* barrier=floor gets the empty barrier function */
    CHECK(a->classes[2].id == SANITIZER_INSTRUCTION_BARRIER &&
          strcmp(a->classes[2].fn, CC_PATCH_FN_FLOOR_BARRIER) == 0);
    /* the tool's own client is left as it was */
    CHECK(cl.nclasses == 4 && strcmp(cl.classes[2].fn, "tool_barrier") == 0);
}

static void test_first_class_off(void)
{
    cc_instr_client cl = tool(), out;
    char err[256] = "";
    const cc_instr_client *a = cc_instr_classes_adjust(&cl, "global=off", &out, err, sizeof err);
    /* global=off leaves shared first */
    CHECK(a != NULL && a->nclasses == 3 &&
          a->classes[0].id == SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS);
}

static void test_class_the_tool_lacks(void)
{
    cc_instr_client cl = tool(), out;
    char err[256] = "";
    const cc_instr_client *a = cc_instr_classes_adjust(&cl, "shfl=floor", &out, err, sizeof err);
    /* a class the tool does not patch changes nothing */
    CHECK(a != NULL && a->nclasses == 4);
}

static void test_malformed(void)
{
    const char *bad[] = {"barrier", "barrier=", "barrier=slow", "nosuch=off", "=off",
                         "barrier=off,", "barrier=off,,shared=floor"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cc_instr_client cl = tool(), out;
        char err[256] = "";
        const cc_instr_client *a = cc_instr_classes_adjust(&cl, bad[i], &out, err, sizeof err);
        if (strcmp(bad[i], "barrier=off,") == 0) { /* a trailing comma is harmless */
            /* a trailing comma is taken */
            CHECK(a != NULL && a->nclasses == 3);
            continue;
        }
        /* a malformed spec is refused */
        CHECK(a == NULL);
        /* ... with a message */
        CHECK(err[0] != '\0');
    }
}

int main(void)
{
    test_floor_and_off();
    test_first_class_off();
    test_class_the_tool_lacks();
    test_malformed();
    TEST_MAIN_END();
}
