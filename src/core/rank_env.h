/* The rank of a process in a multi-process job, as its launcher says in the environment:
 * torchrun (RANK, LOCAL_RANK, WORLD_SIZE), Open MPI (OMPI_COMM_WORLD_*), Slurm (SLURM_PROCID,
 * SLURM_LOCALID, SLURM_NTASKS), PMI and PMIx (PMI_RANK, PMI_SIZE, PMIX_RANK). The first variable
 * of that order that holds a whole number wins. Read by the agent (report headers, report names,
 * the profile's clock_sync) and by the report name expansion (%r). */
#ifndef CUCHECK_CORE_RANK_ENV_H
#define CUCHECK_CORE_RANK_ENV_H

typedef struct cc_rank_info {
    int rank;       /* global rank, -1 unknown */
    int local_rank; /* rank on this host, -1 unknown */
    int world_size; /* number of ranks, -1 unknown (else at least 1) */
} cc_rank_info;

/* The process's rank, or -1 when no launcher variable names one. */
int cc_rank_from_env(void);
/* Rank, local rank and world size from the environment (-1 each where unknown). */
void cc_rank_info_from_env(cc_rank_info *out);

#endif
