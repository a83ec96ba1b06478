/* Reading and writing event streams: the binary .cuevt format and the text scenario form
 * (both documented in docs/formats.md). Readers bounds-check everything and report errors with
 * the byte offset (binary) or line number (text) where the input went wrong. */
#ifndef CUCHECK_CORE_EVTIO_H
#define CUCHECK_CORE_EVTIO_H

#include <stdio.h>
#include <stddef.h>
#include "cucheck/event.h"

/* ---- binary .cuevt ---- */
typedef struct cc_evt_writer cc_evt_writer;

/* Create path, or replace a recording of the same user there, never through a link (mode 0600,
 * core/owned_file.h), and write the file header. NULL with a message in err on failure. */
cc_evt_writer *cc_evt_writer_open(const char *path, char *err, size_t errlen);
/* Append one event. Thread-safe (internally locked). 0 on success, -1 on I/O error. */
int cc_evt_write(cc_evt_writer *w, const cc_event *ev);
/* Push buffered records to the file (the agent calls it on exit, abort and fatal signals). */
int cc_evt_writer_flush(cc_evt_writer *w);
int cc_evt_writer_close(cc_evt_writer *w); /* flushes and frees; 0 on success */

/* Encode one event as a record into buf (at most cap bytes). Returns the record's length, or
 * 0 if it does not fit. Used by the writer and by tests. */
size_t cc_evt_encode(const cc_event *ev, unsigned char *buf, size_t cap);

/* ---- reading either form ---- */
typedef struct cc_evt_reader cc_evt_reader;

/* Open a file in either form (binary if it starts with the .cuevt magic, else text). Only a
 * regular file: a FIFO or a device is refused ("PATH: not a regular file (a FIFO)"). */
cc_evt_reader *cc_evt_reader_open(const char *path, char *err, size_t errlen);
/* Read from memory; the buffer must outlive the reader. text=-1: detect, 0: binary, 1: text. */
cc_evt_reader *cc_evt_reader_open_mem(const void *data, size_t size, int text, char *err,
                                      size_t errlen);
/* Next event: 1 = *ev filled (its strings and arrays stay valid until the next call),
 * 0 = clean end of input, -1 = error described in err ("offset 1234: record length ...",
 * "line 7: unknown key 'sizee'"). After -1 the reader stays in error. */
int cc_evt_read(cc_evt_reader *r, cc_event *ev, char *err, size_t errlen);
void cc_evt_reader_close(cc_evt_reader *r);

/* ---- text scenario form ---- */
/* Write one event as one line of the scenario form (the format `cucheck dump` prints; the
 * reader accepts it back unchanged). */
void cc_scenario_write_event(FILE *out, const cc_event *ev);

#endif
