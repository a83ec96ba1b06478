/* Tests of core/rank_env.c and the %r of report names: the launchers' variables in their order
 * (torchrun, Open MPI, Slurm, PMI), values that are no whole number skipped, local rank and
 * world size, and %r giving "rank<R>." with a rank and nothing without one. */
#include "check.h"
#include "core/rank_env.h"
#include "core/report.h"

#include <stdlib.h>

static void clear(void)
{
    static const char *const vars[] = {
        "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK", "PMIX_RANK", "LOCAL_RANK",
        "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", "WORLD_SIZE",
        "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE", NULL};
    for (size_t i = 0; vars[i]; i++) {
        unsetenv(vars[i]);
    }
}

int main(void)
{
    cc_rank_info ri;
    char out[128];
    clear();
    cc_rank_info_from_env(&ri);
    CHECK(ri.rank == -1 && ri.local_rank == -1 && ri.world_size == -1);
    CHECK(cc_expand_report_name("c.%r%p.jsonl", 42, out, sizeof out) == 0);
    CHECK_STR(out, "c.42.jsonl");

    /* torchrun */
    setenv("RANK", "3", 1);
    setenv("LOCAL_RANK", "1", 1);
    setenv("WORLD_SIZE", "4", 1);
    cc_rank_info_from_env(&ri);
    CHECK(ri.rank == 3 && ri.local_rank == 1 && ri.world_size == 4);
    CHECK(cc_expand_report_name("c.%r%p.jsonl", 42, out, sizeof out) == 0);
    CHECK_STR(out, "c.rank3.42.jsonl");
    CHECK(cc_expand_report_name("%%r%r", 1, out, sizeof out) == 0);
    CHECK_STR(out, "%rrank3.");

    /* RANK wins over the others; a value that is no whole number is skipped */
    setenv("SLURM_PROCID", "7", 1);
    CHECK(cc_rank_from_env() == 3);
    setenv("RANK", "x1", 1);
    CHECK(cc_rank_from_env() == 7);
    setenv("RANK", "-1", 1);
    CHECK(cc_rank_from_env() == 7);
    setenv("RANK", "", 1);
    CHECK(cc_rank_from_env() == 7);
    setenv("RANK", "99999999999", 1);
    CHECK(cc_rank_from_env() == 7);

    /* Open MPI, Slurm, PMI */
    clear();
    setenv("OMPI_COMM_WORLD_RANK", "5", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
    setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
    cc_rank_info_from_env(&ri);
    CHECK(ri.rank == 5 && ri.local_rank == 0 && ri.world_size == 8);
    clear();
    setenv("SLURM_PROCID", "2", 1);
    setenv("SLURM_LOCALID", "2", 1);
    setenv("SLURM_NTASKS", "0", 1); /* no world of 0 ranks */
    cc_rank_info_from_env(&ri);
    CHECK(ri.rank == 2 && ri.local_rank == 2 && ri.world_size == -1);
    clear();
    setenv("PMIX_RANK", "9", 1);
    CHECK(cc_rank_from_env() == 9);
    setenv("PMI_RANK", "8", 1);
    CHECK(cc_rank_from_env() == 8);
    clear();
    TEST_MAIN_END();
}
