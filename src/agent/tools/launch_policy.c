/* The launch policy's tables shared in form by memcheck's and racecheck's clients
 * (launch_policy.h): their setup, the selection cache's insertion and the demangling buffer. */
#include "agent/tools/launch_policy.h"
#include "symbols/demangle.h"

void cc_launch_tables_init(cc_launch_tables *t)
{
    cc_hashmap_init_fixed(&t->shapes, t->shape_slots, t->shape_used, CC_LAUNCH_SHAPES);
    cc_hashmap_init_fixed(&t->funcs, t->func_slots, t->func_used, CC_LAUNCH_FUNCS);
    t->ready = 1;
}

void cc_launch_func_remember(cc_launch_tables *t, CUfunction fn, int selected)
{
    (void)cc_hashmap_put(&t->funcs, (uint64_t)(uintptr_t)fn, (uint64_t)selected);
}

const char *cc_launch_demangled(const char *name)
{
    static char dem[16384];
    cc_demangle(name != NULL ? name : "", dem, sizeof dem);
    return dem;
}
