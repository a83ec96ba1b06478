/* The book of announced contexts (context_book.h). */
#include "core/context_book.h"

int cc_context_book_announced(const cc_context_book *b, uint64_t ctx)
{
    if (ctx == 0 || b->n >= CC_CONTEXT_BOOK_MAX) {
        return 1;
    }
    for (size_t i = 0; i < b->n; i++) {
        if (b->ids[i] == ctx) {
            return 1;
        }
    }
    return 0;
}

void cc_context_book_add(cc_context_book *b, uint64_t ctx)
{
    if (!cc_context_book_announced(b, ctx)) {
        b->ids[b->n++] = ctx;
    }
}
