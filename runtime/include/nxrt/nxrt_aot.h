/*===- nxrt_aot.h - what an ahead-of-time compiled nx program exports ----===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * `nx-compile model.mlir -o model.so --prefix=P` (or `-o model.o`) writes an
 * object whose only global symbols are:
 *
 *   P_<entry>     for every public function <entry> of the module: its C
 *                 interface (MLIR's `_mlir_ciface_<entry>`): a pointer to
 *                 the result descriptor(s) first when it has results, then
 *                 one pointer per argument to a memref descriptor
 *                 {T *allocated, T *aligned, int64_t offset,
 *                  int64_t sizes[rank], int64_t strides[rank]}.
 *                 `nx-compile --emit-header=P.h` declares them with typed
 *                 descriptor structs.
 *   P_nx_init     registers the program's call sites:
 *                 nxrt_status_t *P_nx_init(nxrt_program_t *program);
 *                 call it once, before the first run. The sites it
 *                 creates are recorded in the object's own data, so one
 *                 loaded copy of the object serves one nxrt program at a
 *                 time: calling it again points the code at the new
 *                 program. A host that runs one object under several
 *                 programs (several runtimes) loads a copy per program.
 *   P_program     the nxrt_aot_program_t below, which describes the entry
 *                 points so a generic host (nxrt-run) can call them.
 *
 * Everything else the compiled code defines is internal, so several
 * programs (each with its own prefix) link into one host. The object refers
 * to libnxrt's entry points (nxrt_symbols.def), to `nxrt_memref_copy` and,
 * when it has parallel loop nests, to LLVM's OpenMP runtime (libomp).
 *
 * A call of an entry point happens within a run (nxrt_run_begin on the
 * calling thread, then nxrt_run_end): the compiled code reports failures to
 * the run. Results are buffers the caller owns and frees with free() unless
 * their allocated pointer is one of the arguments' or the constant sentinel
 * NXRT_AOT_CONSTANT_BUFFER (a result that is a constant of the program).
 *
 * This header is data only: the types of the descriptor, no functions.
 *
 *===----------------------------------------------------------------------===*/

#ifndef NXRT_NXRT_AOT_H
#define NXRT_NXRT_AOT_H

#include "nxrt/nxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when the layout of the structs below changes. */
#define NXRT_AOT_ABI_VERSION 1

/* The allocated pointer MLIR's lowering stores in a descriptor whose data is
 * a constant global: never freed. */
#define NXRT_AOT_CONSTANT_BUFFER ((uintptr_t)0xdeadbeef)

/* The type of an entry argument or result: a ranked tensor, passed as a
 * memref descriptor. A dynamic dimension is -1. */
typedef struct nxrt_aot_tensor_type_t {
  nxrt_dtype_t dtype;
  int32_t rank;
  const int64_t *dims;
  /* The MLIR spelling, e.g. "tensor<4xf32>". */
  const char *type;
} nxrt_aot_tensor_type_t;

/* One public function of the program. */
typedef struct nxrt_aot_entry_t {
  /* The function's name in the source module (without the prefix). */
  const char *name;
  /* The exported C interface, P_<name>. */
  void *function;
  /* Calls `function` with packed arguments, as MLIR's ExecutionEngine
   * does: `args[0]` points to a `void *` holding the results' descriptor
   * (only when num_results > 0), then each `args[i]` points to a `void *`
   * holding the i-th argument's descriptor. With several results, the
   * results' descriptor is their descriptors concatenated (every field is
   * 8 bytes). */
  void (*packed)(void **args);
  int32_t num_args;
  int32_t num_results;
  const nxrt_aot_tensor_type_t *args;
  const nxrt_aot_tensor_type_t *results;
} nxrt_aot_entry_t;

/* P_program. */
typedef struct nxrt_aot_program_t {
  /* NXRT_AOT_ABI_VERSION of the compiler that wrote the object. */
  uint32_t abi_version;
  /* NXRT_API_VERSION the object was compiled against; libnxrt must match. */
  uint32_t api_version;
  /* The source module's name (the input file). */
  const char *name;
  /* P_nx_init. */
  nxrt_status_t *(*init)(nxrt_program_t *program);
  int32_t num_entries;
  const nxrt_aot_entry_t *entries;
  /* The nx.callback declarations' names, for hosts that bind them. */
  int32_t num_callbacks;
  const char *const *callbacks;
} nxrt_aot_program_t;

#ifdef __cplusplus
}
#endif

#endif /* NXRT_NXRT_AOT_H */
