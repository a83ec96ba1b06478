/* doctor's judging pass, split by topic: kernel images (verdicts_images.c), driver,
 * libraries, environment and Python (verdicts_system.c) and the agent (verdicts_agent.c).
 * cc_doctor_judge runs them all. */
#ifndef CUCHECK_DOCTOR_VERDICTS_H
#define CUCHECK_DOCTOR_VERDICTS_H

#include <stddef.h>

#include "doctor/doctor.h"

void cc_doc_judge_images(cc_doc_report *r);
/* Verdicts for one set of images against every target GPU. is_lib: 0 a binary the user
 * builds (fix: -gencode), 1 a library (fix: another release), 2 the PyTorch arch list. */
void cc_doc_judge_images_of(cc_doc_report *r, const char *subject, const char *what, int is_lib,
                            const cc_doc_archs *a);
/* "sm_80 sm_90 compute_90(PTX 9.0)" */
void cc_doc_images_list(const cc_doc_archs *a, char *buf, size_t len);
/* "SASS for CC 8.0-8.9, 9.0-9.9; PTX JIT for CC >= 9.0" */
void cc_doc_coverage(const cc_doc_archs *a, char *buf, size_t len);

void cc_doc_judge_driver(cc_doc_report *r);
void cc_doc_judge_libraries(cc_doc_report *r);
void cc_doc_judge_environment(cc_doc_report *r);
void cc_doc_judge_python(cc_doc_report *r);
void cc_doc_judge_agent(cc_doc_report *r);                  /* verdicts_agent.c */

#endif
