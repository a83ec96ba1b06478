/* Numbers as report text: whole numbers with their digits grouped by thousands. */
#ifndef CUCHECK_CORE_NUMBER_TEXT_H
#define CUCHECK_CORE_NUMBER_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* 1234567 -> "1,234,567" into out (len bytes, always terminated; 27 bytes hold any value). */
void cc_grouped_digits(uint64_t v, char *out, size_t len);

#endif
