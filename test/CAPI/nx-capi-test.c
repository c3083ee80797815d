/*===- nx-capi-test.c - the nx C API, used from plain C -------------------===*\
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
|*                                                                            *|
|* Loads nx through its dialect handle, parses a program with a host          *|
|* callback, lowers it with textual pipelines and with nx-lower-to-cpu, and   *|
|* checks that bad pipelines and options fail with a message.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: nx-capi-test 2>&1 | FileCheck %s
 */

#include "nx-c/Dialect/Nx.h"
#include "nx-c/Passes.h"
#include "nx-c/RegisterEverything.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kProgram =
    "module {\n"
    "nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>\n"
    "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %y = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64}\n"
    "      : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %z = arith.addf %y, %x : tensor<4xf32>\n"
    "  return %z : tensor<4xf32>\n"
    "}\n"
    "}\n";

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static MlirContext createContext(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirNxRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  return ctx;
}

static MlirModule parseProgram(MlirContext ctx) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kProgram));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse the program\n");
    exit(1);
  }
  return module;
}

static void printModule(MlirModule module) {
  mlirOperationPrint(mlirModuleGetOperation(module), printToStderr, NULL);
  fprintf(stderr, "\n");
}

/* The handle loads nx on its own. */
static void testDialectHandle(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectHandle handle = mlirGetDialectHandle__nx__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  fprintf(stderr, "namespace: %.*s\n", (int)ns.length, ns.data);
  MlirDialect nx = mlirDialectHandleLoadDialect(handle, ctx);
  fprintf(stderr, "loaded: %d\n", !mlirDialectIsNull(nx));
  MlirDialect again =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("nx"));
  fprintf(stderr, "same dialect: %d\n", mlirDialectEqual(nx, again));
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: namespace: nx
// CHECK: loaded: 1
// CHECK: same dialect: 1

/* A textual pipeline of nx passes, through mlirParsePassPipeline. */
static void testTextualPipeline(void) {
  mlirNxRegisterAllPasses();
  MlirContext ctx = createContext();
  MlirModule module = parseProgram(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(nx-assign-callback-ids,convert-nx-to-custom-call)"),
      printToStderr, NULL);
  fprintf(stderr, "textual pipeline parsed: %d\n",
          mlirLogicalResultIsSuccess(parsed));
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  fprintf(stderr, "textual pipeline ran: %d\n",
          mlirLogicalResultIsSuccess(ran));
  printModule(module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: textual pipeline parsed: 1
// CHECK: textual pipeline ran: 1
// CHECK: nx.callback_ids
// CHECK: func.func @main
// CHECK: nx.custom_call @exla_runtime_callback(%{{.*}}, %{{.*}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 0 : ui64}, has_side_effect = true, nx.callback_attrs = {static_args = {factor = 2.000000e+00 : f64}}}
// CHECK: arith.addf

/* A pass created through its generated constructor. */
static void testCreatedPass(void) {
  MlirContext ctx = createContext();
  MlirModule module = parseProgram(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, mlirCreateNxDialectNxAssignCallbackIdsPass());
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  fprintf(stderr, "created pass ran: %d\n", mlirLogicalResultIsSuccess(ran));
  printModule(module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: created pass ran: 1
// CHECK: module attributes {nx.callback_ids = {{.*}}scale
// CHECK: nx.elixir_call @scale

/* nx-lower-to-cpu through mlirNxBuildLowerToCpuPipeline, with options. */
static void testLowerToCpu(void) {
  MlirContext ctx = createContext();
  MlirModule module = parseProgram(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult built = mlirNxBuildLowerToCpuPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("blas=false parallel=false"),
      printToStderr, NULL);
  fprintf(stderr, "lower-to-cpu built: %d\n",
          mlirLogicalResultIsSuccess(built));
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  fprintf(stderr, "lower-to-cpu ran: %d\n", mlirLogicalResultIsSuccess(ran));
  printModule(module);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: lower-to-cpu built: 1
// CHECK: lower-to-cpu ran: 1
// CHECK-NOT: nx.elixir_call
// CHECK: llvm.func @main(
// CHECK: llvm.call @nxrt_invoke
// CHECK: llvm.func @_mlir_ciface_main(
// CHECK: llvm.func @__nx_init

/* The nx pipeline, registered, by name in a textual pipeline. */
static void testRegisteredPipeline(void) {
  mlirNxRegisterPipelines();
  MlirContext ctx = createContext();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(nx-lower-to-cpu{vectorize=false})"),
      printToStderr, NULL);
  fprintf(stderr, "registered pipeline parsed: %d\n",
          mlirLogicalResultIsSuccess(parsed));
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: registered pipeline parsed: 1

/* Errors: a malformed pipeline, an unknown pass, bad pipeline options. */
static void testErrors(void) {
  MlirContext ctx = createContext();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  fprintf(stderr, "malformed pipeline:\n");
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString("builtin.module(nx-assign-callback-ids"),
      printToStderr, NULL);
  fprintf(stderr, "\nmalformed pipeline parsed: %d\n",
          mlirLogicalResultIsSuccess(parsed));
  parsed = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(nx-no-such-pass)"),
      printToStderr, NULL);
  fprintf(stderr, "\nunknown pass parsed: %d\n",
          mlirLogicalResultIsSuccess(parsed));
  MlirLogicalResult built = mlirNxBuildLowerToCpuPipeline(
      opm, mlirStringRefCreateFromCString("no-such-option=1"), printToStderr,
      NULL);
  fprintf(stderr, "bad option built: %d\n", mlirLogicalResultIsSuccess(built));
  built = mlirNxBuildLowerToCpuPipeline(
      opm, mlirStringRefCreateFromCString("blas=maybe"), NULL, NULL);
  fprintf(stderr, "bad value without callback built: %d\n",
          mlirLogicalResultIsSuccess(built));
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}
// CHECK-LABEL: malformed pipeline:
// CHECK-NEXT: expected pass pipeline to be wrapped with the anchor operation type
// CHECK: malformed pipeline parsed: 0
// CHECK: 'nx-no-such-pass' does not refer to a registered pass or pass pipeline
// CHECK: unknown pass parsed: 0
// CHECK: nx-lower-to-cpu: {{.*}}no-such-option
// CHECK: bad option built: 0
// CHECK: bad value without callback built: 0

int main(void) {
  testDialectHandle();
  testTextualPipeline();
  testCreatedPass();
  testLowerToCpu();
  testRegisteredPipeline();
  testErrors();
  return 0;
}
