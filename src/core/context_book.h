/* The contexts a process announced (CC_EV_CONTEXT_CREATE). An allocation of a context not
 * announced yet is the runtime's own, made while it creates the context (cudart takes 512 bytes
 * there): memcheck leaves it out of its leak check and initcheck out of its model. */
#ifndef CUCHECK_CORE_CONTEXT_BOOK_H
#define CUCHECK_CORE_CONTEXT_BOOK_H

#include <stddef.h>
#include <stdint.h>

#define CC_CONTEXT_BOOK_MAX 64

typedef struct cc_context_book {
    uint64_t ids[CC_CONTEXT_BOOK_MAX];
    size_t n;
} cc_context_book;

/* ctx noted as announced (again: nothing; the book full: dropped, see below). */
void cc_context_book_add(cc_context_book *b, uint64_t ctx);
/* 1 when ctx was announced, or cannot be told apart: no context (0) or the book full. */
int cc_context_book_announced(const cc_context_book *b, uint64_t ctx);

#endif
