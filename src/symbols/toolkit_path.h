/* Whether a source file recorded in device line information is a CUDA toolkit header (the
 * runtime's intrinsics, cub, thrust, libcu++, ...) rather than the user's own code: device
 * findings inside code inlined from such headers are reported at the user's call site. */
#ifndef CUCHECK_SYMBOLS_TOOLKIT_PATH_H
#define CUCHECK_SYMBOLS_TOOLKIT_PATH_H

/* 1 if dir/file (file alone when absolute or dir is NULL) lies in a CUDA include directory:
 *  - .../targets/<any>/include/...                  (toolkit and conda layouts)
 *  - .../cuda[-_]<version>[/<version>]/include/...  (/usr/local/cuda-13.0, /opt/cuda, HPC SDK
 *                                                    cuda/12.3, CUDA/v13.0 on Windows)
 *  - .../nvidia/<package>/include/...               (pip wheels: nvidia/cu13, nvidia/cuda_runtime)
 *  - .../include/{cub,thrust,cuda,cccl}/...         (CCCL headers wherever installed)
 * Backslashes count as slashes. NULL or empty paths are not toolkit headers. */
int cc_toolkit_header(const char *dir, const char *file);

#endif
