/* doctor's probes (everything that looks at the machine): driver and GPUs, library versions,
 * kernel images inside files, library search, pip wheel ownership, the Python environment and
 * the libraries a program loads. Each fills part of a cc_doc_report (doctor.h). */
#ifndef CUCHECK_DOCTOR_PROBE_H
#define CUCHECK_DOCTOR_PROBE_H

#include <stddef.h>
#include <stdio.h>

#include "doctor/doctor.h"

void cc_doc_probe_driver(cc_doc_driver *d);                 /* probe_driver.c */
/* Load lib->path in a child and call its version function(s). */
void cc_doc_probe_lib(cc_doc_lib *lib);                     /* probe_libs.c */
/* Kernel images (SASS/PTX with archs and PTX ISA) in a host ELF (.nv_fatbin), a .fatbin or a
 * cubin. Files without device code give has_device_code = 0 and no error. */
void cc_doc_scan_archs(const char *path, cc_doc_archs *a);  /* binary_archs.c */
/* The CUDA libraries in dir (by file name), added with origin. Returns how many were added. */
int cc_doc_search_dir(cc_doc_report *r, const char *dir, int origin); /* lib_search.c */
/* LD_LIBRARY_PATH, ldconfig -p, /usr/local/cuda* (lib64, targets/<arch>/lib, CUPTI,
 * compute-sanitizer), and the Python site-packages already in r->python. */
void cc_doc_search_libs(cc_doc_report *r);                  /* lib_search.c */
/* "nvidia-cublas-cu12 12.4.5.8" if a pip .dist-info RECORD lists path; "" otherwise. */
void cc_doc_wheel_owner(const char *path, char *out, size_t len); /* wheel_owner.c */
/* Run the interpreter with the embedded probe script (sites, torch, packages, nvcc). */
void cc_doc_probe_python(cc_doc_report *r, int want_torch); /* probe_python.c */
/* Parse the probe script's "key\tvalue" output into p (exposed for tests). */
void cc_doc_parse_python_output(const char *text, cc_doc_python *p);
/* Run r->opt.program under LD_DEBUG and add the CUDA libraries and device-code objects it
 * loaded. */
void cc_doc_run_program(cc_doc_report *r);                  /* probe_program.c */
/* Paths of the objects named by "calling init: PATH" lines of LD_DEBUG=libs output; cb per
 * path (exposed for tests). */
void cc_doc_parse_ld_debug(const char *text, void (*cb)(const char *path, void *user),
                           void *user);
/* The agent: where cucheck finds it, the Sanitizer library and CUPTI it loads, a test process
 * with it injected per backend, and other tools clients named by the environment. */
void cc_doc_probe_agent(cc_doc_report *r);                  /* probe_agent.c */
/* Fill inj from the test's output (cucheck's stdout and stderr) and the loader's log (exposed
 * for tests); reports is the number of process reports it wrote. */
void cc_doc_parse_injection(const char *output, const char *ld_log, int reports,
                            cc_doc_injection *inj);
/* Other tools clients in these variables' values (any may be NULL); agent is cucheck's own
 * library (never counted). Returns how many were added to a. */
int cc_doc_find_clients(const char *cuda_injection, const char *nvtx_injection,
                        const char *ld_preload, const char *agent, cc_doc_agent *a);
/* `cucheck doctor --cuda-probe`: load libcuda.so.1, cuInit, and on the first GPU retain the
 * primary context and allocate and free 256 bytes; one line on out. 0 when all of it worked. */
int cc_doc_cuda_probe(FILE *out);                           /* cuda_probe.c */
/* `nvcc --version` of the nvcc on PATH: "release 13.0, V13.0.88 (/usr/local/cuda/bin/nvcc)". */
void cc_doc_nvcc_version(char *out, size_t len);            /* probe_python.c */

#endif
