/* NCCL operations as streamcheck models them, without NCCL: the byte size of each
 * ncclDataType_t, the API name of each CC_COLL_* operation ("ncclAllReduce"), and the byte
 * ranges one rank's call reads and writes (docs/streamcheck.md, "NCCL collectives"). Pure
 * functions, shared by the agent's interposer (src/agent/host/nccl_calls.c) and the tools. */
#ifndef CUCHECK_CORE_NCCL_OPS_H
#define CUCHECK_CORE_NCCL_OPS_H

#include <stdint.h>
#include "cucheck/event.h"

/* Bytes per element of an ncclDataType_t value (ncclInt8 = 0 ... ncclFloat8e5m2 = 11); 0 for
 * a value this build does not know. */
uint32_t cc_nccl_type_size(int32_t datatype);

/* "ncclAllReduce", "ncclBcast", ...; "ncclOperation" for an unknown op. */
const char *cc_nccl_api_name(uint32_t op);

/* Sets c->send_bytes and c->recv_bytes from c->op, count, elem_size, peer (the root), rank,
 * nranks and, for broadcasts, whether sendbuff == recvbuff:
 *   allreduce      reads count*size, writes count*size
 *   broadcast      root reads count*size and writes it unless in place; others write it
 *   bcast          (in place) root reads count*size; others write it
 *   reduce         reads count*size; the root writes count*size
 *   allgather      reads count*size, writes count*size*nranks
 *   reducescatter  reads count*size*nranks, writes count*size
 *   send / recv    reads / writes count*size
 * With the rank unknown (-1) a rank is taken as not the root; with nranks unknown (<= 0) as 1:
 * only bytes every rank surely touches. Returns 0; -1 (both sizes 0) when a size does not fit
 * 64 bits or the op is unknown. */
int cc_nccl_ranges(cc_ev_collective *c);

#endif
