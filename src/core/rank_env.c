/* Reading a process's rank, local rank and world size from its launcher's environment
 * (rank_env.h). */
#include "core/rank_env.h"

#include <stdlib.h>

/* The first of vars (NULL-terminated) that holds a whole number in [min, INT_MAX), or -1. */
static int first_number(const char *const *vars, long min)
{
    for (size_t i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        char *end = NULL;
        if (v && *v >= '0' && *v <= '9') {
            long r = strtol(v, &end, 10);
            if (end && *end == '\0' && r >= min && r < 0x7fffffff) {
                return (int)r;
            }
        }
    }
    return -1;
}

int cc_rank_from_env(void)
{
    static const char *const vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID",
                                       "PMI_RANK", "PMIX_RANK", NULL};
    return first_number(vars, 0);
}

void cc_rank_info_from_env(cc_rank_info *out)
{
    static const char *const local[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                        "SLURM_LOCALID", "MPI_LOCALRANKID", NULL};
    static const char *const size[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS",
                                       "PMI_SIZE", NULL};
    out->rank = cc_rank_from_env();
    out->local_rank = first_number(local, 0);
    out->world_size = first_number(size, 1);
}
