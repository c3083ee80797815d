/*===- BlasTrap.c - stops a process that runs OpenBLAS's products --------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * Preloaded (LD_PRELOAD) into a benchmark, this library takes the place of
 * the BLAS products and matrix-vector products: the first call prints the
 * routine's name and ends the process with status 70. OpenBLAS chooses its
 * kernels from a table of CPU models, and on a CPU newer than the table
 * (OPENBLAS_CORETYPE=Prescott shows what that CPU gets) they are generic
 * SSE3 code: a benchmark that runs under this library without stopping
 * has no figure that depends on that choice.
 *
 *===----------------------------------------------------------------------===*/

#include <stdio.h>
#include <unistd.h>

static void trap(const char *routine) {
  fprintf(stderr,
          "nx benchmark: %s ran: its speed depends on OpenBLAS's choice of "
          "kernels for this CPU (OPENBLAS_CORETYPE)\n",
          routine);
  fflush(stderr);
  _exit(70);
}

/* The arguments are never read: the first call ends the process. */
#define NX_TRAP(name)                                                          \
  void name(void);                                                             \
  void name(void) { trap(#name); }

NX_TRAP(cblas_sgemm)
NX_TRAP(cblas_dgemm)
NX_TRAP(cblas_sgemv)
NX_TRAP(cblas_dgemv)
NX_TRAP(sgemm_)
NX_TRAP(dgemm_)
NX_TRAP(sgemv_)
NX_TRAP(dgemv_)
