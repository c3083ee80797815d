//===- FfiTest.cpp - The XLA FFI C API and handlers as targets ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Handlers here use only the C ABI of xla_ffi.h, as a library built for XLA
// would. The handler registry is process-wide, so every test registers
// names of its own.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "TestUtil.h"
#include "nxrt/nxrt_ffi.h"

using namespace nxrt_test;

namespace {

const XLA_FFI_Api *api() { return nxrt_ffi_api(); }

XLA_FFI_Error *error(XLA_FFI_Error_Code code, const char *text) {
  XLA_FFI_Error_Create_Args args{};
  args.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
  args.message = text;
  args.errc = code;
  return api()->XLA_FFI_Error_Create(&args);
}

std::string takeMessage(XLA_FFI_Error *e) {
  if (!e)
    return "";
  XLA_FFI_Error_GetMessage_Args get{};
  get.struct_size = XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE;
  get.error = e;
  api()->XLA_FFI_Error_GetMessage(&get);
  std::string text = get.message;
  XLA_FFI_Error_Destroy_Args destroy{};
  destroy.struct_size = XLA_FFI_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = e;
  api()->XLA_FFI_Error_Destroy(&destroy);
  return text;
}

// Answers the registration's metadata query with API version 0.`minor`.
template <int Minor> bool answered(XLA_FFI_CallFrame *frame) {
  XLA_FFI_Extension_Base *ext = frame->extension_start;
  if (!ext || ext->type != XLA_FFI_Extension_Metadata)
    return false;
  auto *metadata =
      reinterpret_cast<XLA_FFI_Metadata_Extension *>(ext)->metadata;
  metadata->api_version.major_version = 0;
  metadata->api_version.minor_version = Minor;
  return true;
}

void registerExecute(const char *name, XLA_FFI_Handler *execute,
                     XLA_FFI_Handler *instantiate = nullptr) {
  XLA_FFI_Handler_Bundle bundle{};
  bundle.instantiate = instantiate;
  bundle.execute = execute;
  NXRT_ASSERT_OK(nxrt_ffi_register(name, "Host", &bundle, 0));
}

class NxrtFfi : public RuntimeTest {
protected:
  // Runs target `name` once on x: f32[2] -> y: f32[2] and returns the run's
  // status.
  Status runOnce(const char *name, const std::vector<uint8_t> &attrs = {}) {
    nxrt_site_t *site =
        addSite(NXRT_SITE_CUSTOM_CALL, name, "ffi.mlir:4:2", attrs);
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
    return Status(nxrt_run_end(run));
  }
  Tensor<float> x{NXRT_F32, {2}, {1, 2}};
  Tensor<float> y{NXRT_F32, {2}};
};

TEST(NxrtFfiApi, TableIsCompleteAtVersion04) {
  const XLA_FFI_Api *table = api();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table, XLA_FFI_GetApi());
  EXPECT_EQ(table->struct_size, size_t(XLA_FFI_Api_STRUCT_SIZE));
  EXPECT_EQ(table->api_version.major_version, 0);
  EXPECT_EQ(table->api_version.minor_version, 4);
  // Every slot from Error_Create to InvokeContext_FindExtension is filled.
  auto *first = reinterpret_cast<void *const *>(&table->XLA_FFI_Error_Create);
  auto *last = reinterpret_cast<void *const *>(
      &table->XLA_FFI_InvokeContext_FindExtension);
  for (auto *slot = first; slot <= last; ++slot)
    EXPECT_NE(*slot, nullptr) << "slot " << (slot - first);
}

TEST(NxrtFfiApi, ErrorsKeepTheirMessage) {
  EXPECT_EQ(takeMessage(error(XLA_FFI_Error_Code_INTERNAL, "boom")), "boom");
}

// 0.4's Error_GetDetails also returns the code; a caller of 0.3's
// Error_GetMessage, whose struct ends at the message, gets no code written.
TEST(NxrtFfiApi, ErrorDetailsCarryTheCodeForCallersThatKnowIt) {
  XLA_FFI_Error *e = error(XLA_FFI_Error_Code_OUT_OF_RANGE, "far");
  XLA_FFI_Error_GetDetails_Args details{};
  details.struct_size = XLA_FFI_Error_GetDetails_Args_STRUCT_SIZE;
  details.error = e;
  api()->XLA_FFI_Error_GetDetails(&details);
  EXPECT_STREQ(details.message, "far");
  EXPECT_EQ(details.errc, XLA_FFI_Error_Code_OUT_OF_RANGE);
  XLA_FFI_Error_GetDetails_Args older{};
  older.struct_size = XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE;
  older.error = e;
  older.errc = XLA_FFI_Error_Code_DATA_LOSS;
  api()->XLA_FFI_Error_GetMessage(&older);
  EXPECT_STREQ(older.message, "far");
  EXPECT_EQ(older.errc, XLA_FFI_Error_Code_DATA_LOSS);
  EXPECT_EQ(takeMessage(e), "far");
}

// nx attaches no extension to an invoke context.
TEST(NxrtFfiApi, NoExtensionIsFound) {
  XLA_FFI_InvokeContext_FindExtension_Args args{};
  args.struct_size = XLA_FFI_InvokeContext_FindExtension_Args_STRUCT_SIZE;
  args.extension_type = 7;
  args.extension = reinterpret_cast<const XLA_FFI_Extension *>(&args);
  EXPECT_EQ(api()->XLA_FFI_InvokeContext_FindExtension(&args), nullptr);
  EXPECT_EQ(args.extension, nullptr);
}

TEST(NxrtFfiApi, ShortStructsAreRejectedNamingTheCall) {
  int64_t threads = 0;
  XLA_FFI_ThreadPool_NumThreads_Args args{};
  args.struct_size = 8;
  args.num_threads = &threads;
  EXPECT_EQ(takeMessage(api()->XLA_FFI_ThreadPool_NumThreads(&args)),
            "XLA_FFI_ThreadPool_NumThreads: struct_size 8 is smaller than "
            "the 32 bytes the call reads");
  // A newer caller's larger struct is fine.
  args.struct_size = 64;
  EXPECT_EQ(api()->XLA_FFI_ThreadPool_NumThreads(&args), nullptr);
  EXPECT_GE(threads, 1);
}

TEST(NxrtFfiApi, TypesKeepTheirIds) {
  XLA_FFI_TypeId first{0}, again{0}, wrong{first.type_id + 1000};
  XLA_FFI_Type_Register_Args args{};
  args.struct_size = XLA_FFI_Type_Register_Args_STRUCT_SIZE;
  args.name = {"ffi_test.Type", 13};
  args.type_id = &first;
  EXPECT_EQ(api()->XLA_FFI_Type_Register(&args), nullptr);
  EXPECT_NE(first.type_id, 0);
  // API 0.1 callers pass the struct without type_info.
  args.struct_size = offsetof(XLA_FFI_Type_Register_Args, type_info);
  args.type_id = &again;
  EXPECT_EQ(api()->XLA_FFI_Type_Register(&args), nullptr);
  EXPECT_EQ(again.type_id, first.type_id);
  wrong.type_id = first.type_id + 1000;
  args.type_id = &wrong;
  EXPECT_EQ(takeMessage(api()->XLA_FFI_Type_Register(&args)),
            "type 'ffi_test.Type' is registered with id " +
                std::to_string(first.type_id) + ", not " +
                std::to_string(first.type_id + 1000));
}

XLA_FFI_Error *noop(XLA_FFI_CallFrame *frame) {
  answered<3>(frame);
  return nullptr;
}

XLA_FFI_Error *builtForApi09(XLA_FFI_CallFrame *frame) {
  answered<9>(frame);
  return nullptr;
}

TEST(NxrtFfiRegistry, KeepsOtherPlatformsApartAndRefusesVersionsAndNames) {
  XLA_FFI_Handler_Bundle bundle{};
  bundle.execute = noop;
  // Another platform's handler is kept, as XLA keeps it, and never bound.
  NXRT_EXPECT_OK(nxrt_ffi_register("ffi_test.cuda", "CUDA", &bundle, 0));
  EXPECT_FALSE(nxrt_ffi_has_handler("ffi_test.cuda"));
  bundle.execute = builtForApi09;
  Status newer(nxrt_ffi_register("ffi_test.newer", "cpu", &bundle, 0));
  EXPECT_EQ(nxrt_status_code(newer.get()), NXRT_UNIMPLEMENTED);
  EXPECT_EQ(message(newer), "XLA FFI handler 'ffi_test.newer' was built "
                            "against API version 0.9; nx implements 0.1 to "
                            "0.4");
  EXPECT_FALSE(nxrt_ffi_has_handler("ffi_test.newer"));
  bundle.execute = noop;
  NXRT_EXPECT_OK(nxrt_ffi_register("ffi_test.once", "host", &bundle, 0));
  NXRT_EXPECT_OK(nxrt_ffi_register("ffi_test.once", "Host", &bundle, 0));
  bundle.instantiate = noop;
  Status twice(nxrt_ffi_register("ffi_test.once", "Host", &bundle, 0));
  EXPECT_EQ(nxrt_status_code(twice.get()), NXRT_ALREADY_EXISTS);
  EXPECT_TRUE(nxrt_ffi_has_handler("ffi_test.once"));
}

// What a handler saw of its frame.
struct Frame {
  size_t frameSize = 0, bufferSize = 0;
  std::vector<XLA_FFI_DataType> dtypes;
  std::vector<void *> data;
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::string> names;
  std::vector<std::string> nestedNames;
  std::vector<std::string> scalars; // "dtype:value"
  std::string text;
  std::vector<int32_t> array;
};
Frame seen;

std::string name(const XLA_FFI_ByteSpan *span) {
  return std::string(span->ptr, span->len);
}

std::string scalarText(const XLA_FFI_Scalar *s) {
  std::string value;
  switch (s->dtype) {
  case XLA_FFI_DataType_S32:
    value = std::to_string(*static_cast<int32_t *>(s->value));
    break;
  case XLA_FFI_DataType_U8:
  case XLA_FFI_DataType_PRED:
    value = std::to_string(*static_cast<uint8_t *>(s->value));
    break;
  case XLA_FFI_DataType_F16:
  case XLA_FFI_DataType_BF16:
    value = std::to_string(*static_cast<uint16_t *>(s->value));
    break;
  case XLA_FFI_DataType_F64:
    value = std::to_string(*static_cast<double *>(s->value));
    break;
  default:
    value = "?";
  }
  return std::to_string(s->dtype) + ":" + value;
}

XLA_FFI_Error *record(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  seen = Frame();
  seen.frameSize = frame->struct_size;
  seen.bufferSize =
      static_cast<XLA_FFI_Buffer *>(frame->args.args[0])->struct_size;
  for (int64_t i = 0; i < frame->args.size + frame->rets.size; ++i) {
    auto *b = static_cast<XLA_FFI_Buffer *>(
        i < frame->args.size ? frame->args.args[i]
                             : frame->rets.rets[i - frame->args.size]);
    seen.dtypes.push_back(b->dtype);
    seen.data.push_back(b->data);
    seen.dims.emplace_back(b->dims, b->dims + b->rank);
  }
  const XLA_FFI_Attrs &attrs = frame->attrs;
  for (int64_t i = 0; i < attrs.size; ++i) {
    seen.names.push_back(name(attrs.names[i]));
    void *value = attrs.attrs[i];
    switch (attrs.types[i]) {
    case XLA_FFI_AttrType_SCALAR:
      seen.scalars.push_back(scalarText(static_cast<XLA_FFI_Scalar *>(value)));
      break;
    case XLA_FFI_AttrType_STRING:
      seen.text = name(static_cast<XLA_FFI_ByteSpan *>(value));
      break;
    case XLA_FFI_AttrType_ARRAY: {
      auto *a = static_cast<XLA_FFI_Array *>(value);
      if (a->dtype == XLA_FFI_DataType_S64)
        for (size_t k = 0; k < a->size; ++k)
          seen.array.push_back(
              static_cast<int32_t>(static_cast<int64_t *>(a->data)[k]));
      break;
    }
    case XLA_FFI_AttrType_DICTIONARY: {
      auto *d = static_cast<XLA_FFI_Attrs *>(value);
      for (int64_t k = 0; k < d->size; ++k)
        seen.nestedNames.push_back(name(d->names[k]));
      break;
    }
    }
  }
  return nullptr;
}

TEST_F(NxrtFfi, HandlersSeeBuffersInPlaceAndAttributesSortedByName) {
  registerExecute("ffi_test.record", record);
  std::vector<uint8_t> attrs =
      Attrs()
          .str("zeta", "last")
          .integer("count", NXRT_SIGNED, 32, -3)
          .integer("byte", NXRT_UNSIGNED, 8, 200)
          .floating("half", NXRT_F16, 0.5)
          .floating("brain", NXRT_BF16, -1.5)
          .boolean("flag", true)
          .f64("ratio", 0.25)
          .i64Array("ids", {4, -1})
          .dict("nested", Attrs().i64("b", 1).i64("a", 2))
          .encode();
  NXRT_ASSERT_OK(runOnce("ffi_test.record", attrs).release());
  // XLA's own sizes, which handlers built with its C++ header check for
  // equality: the frame's stops before `future`.
  EXPECT_EQ(seen.frameSize, size_t(XLA_FFI_CallFrame_STRUCT_SIZE));
  EXPECT_EQ(seen.frameSize, offsetof(XLA_FFI_CallFrame, future));
  EXPECT_EQ(seen.bufferSize, size_t(XLA_FFI_Buffer_STRUCT_SIZE));
  EXPECT_EQ(seen.dtypes, (std::vector<XLA_FFI_DataType>{XLA_FFI_DataType_F32,
                                                        XLA_FFI_DataType_F32}));
  EXPECT_EQ(seen.data, (std::vector<void *>{x.data.data(), y.data.data()}));
  EXPECT_EQ(seen.dims, (std::vector<std::vector<int64_t>>{{2}, {2}}));
  EXPECT_EQ(seen.names,
            (std::vector<std::string>{"brain", "byte", "count", "flag", "half",
                                      "ids", "nested", "ratio", "zeta"}));
  EXPECT_EQ(seen.nestedNames, (std::vector<std::string>{"a", "b"}));
  // bf16 -1.5 is 0xbfc0, f16 0.5 is 0x3800.
  EXPECT_EQ(seen.scalars,
            (std::vector<std::string>{"16:49088", "6:200", "4:-3", "1:1",
                                      "10:14336", "12:0.250000"}));
  EXPECT_EQ(seen.text, "last");
  EXPECT_EQ(seen.array, (std::vector<int32_t>{4, -1}));
}

TEST_F(NxrtFfi, AnAttributeXlaCannotExpressFailsTheCall) {
  registerExecute("ffi_test.odd", noop);
  Status s = runOnce("ffi_test.odd",
                     Attrs().integer("odd", NXRT_SIGNLESS, 3, 1).encode());
  EXPECT_EQ(message(s), "custom call @ffi_test.odd at ffi.mlir:4:2 failed: "
                        "attribute 'odd' has type i3, which XLA FFI has no "
                        "scalar type for");
}

XLA_FFI_Error *rejects(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  return error(XLA_FFI_Error_Code_OUT_OF_RANGE, "index 7 is out of range");
}

TEST_F(NxrtFfi, AHandlersErrorFailsTheRunWithItsCode) {
  registerExecute("ffi_test.rejects", rejects);
  Status s = runOnce("ffi_test.rejects");
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_OUT_OF_RANGE);
  EXPECT_EQ(message(s), "custom call @ffi_test.rejects at ffi.mlir:4:2 "
                        "failed: index 7 is out of range");
}

// A handler whose call makes another handler call on the same thread (as
// one that runs compiled code does) keeps its own frame: the inner call
// must not reuse the outer one's.
nxrt_run_t *nestedRun = nullptr;
nxrt_site_t *innerSite = nullptr;

XLA_FFI_Error *innerNegate(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  auto *in = static_cast<XLA_FFI_Buffer *>(frame->args.args[0]);
  auto *out = static_cast<XLA_FFI_Buffer *>(frame->rets.rets[0]);
  *static_cast<float *>(out->data) = -*static_cast<float *>(in->data);
  return nullptr;
}

XLA_FFI_Error *outerCallsInner(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  int64_t scalar[] = {1};
  float in = 5, out = 0;
  nxrt_tensor_t inView{NXRT_F32, 1, scalar, &in};
  nxrt_tensor_t outView{NXRT_F32, 1, scalar, &out};
  if (nxrt_status_t *s =
          nxrt_invoke(nestedRun, innerSite, &inView, 1, &outView, 1)) {
    nxrt_status_free(s);
    return error(XLA_FFI_Error_Code_INTERNAL, "the inner call failed");
  }
  // The outer frame still describes the outer call's buffers.
  auto *x = static_cast<XLA_FFI_Buffer *>(frame->args.args[0]);
  auto *y = static_cast<XLA_FFI_Buffer *>(frame->rets.rets[0]);
  if (frame->args.size != 1 || frame->rets.size != 1 || x->rank != 1 ||
      x->dims[0] != 2)
    return error(XLA_FFI_Error_Code_INTERNAL,
                 "the outer frame was overwritten");
  for (int i = 0; i < 2; ++i)
    static_cast<float *>(y->data)[i] = static_cast<float *>(x->data)[i] + out;
  return nullptr;
}

TEST_F(NxrtFfi, ACallWithinACallKeepsTheOuterFrame) {
  registerExecute("ffi_test.inner_negate", innerNegate);
  registerExecute("ffi_test.outer", outerCallsInner);
  innerSite = addSite(NXRT_SITE_CUSTOM_CALL, "ffi_test.inner_negate",
                      "ffi.mlir:9:2", {});
  nxrt_site_t *outer =
      addSite(NXRT_SITE_CUSTOM_CALL, "ffi_test.outer", "ffi.mlir:4:2", {});
  nestedRun = nxrt_run_begin(rt, nullptr);
  // Twice: the second call finds the thread's frame set up by the first.
  for (int repeat = 0; repeat < 2; ++repeat) {
    nxrt_status_free(nxrt_invoke(nestedRun, outer, &x.view, 1, &y.view, 1));
    EXPECT_EQ(y.data, (std::vector<float>{-4, -3}));
  }
  NXRT_ASSERT_OK(nxrt_run_end(nestedRun));
}

// State in each API version's layout. The deleters count.
std::atomic<int> deleted{0};
void countDeletion(void *state) {
  ++deleted;
  delete static_cast<int *>(state);
}
XLA_FFI_TypeId stateType{0};

struct StateSetV1 {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_TypeId *type_id;
  void *state;
  void (*deleter)(void *);
};
struct StateGetV1 {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_TypeId *type_id;
  void *state;
};

XLA_FFI_Error *instantiateV1(XLA_FFI_CallFrame *frame) {
  StateSetV1 args{sizeof(StateSetV1), nullptr,     frame->ctx,
                  &stateType,         new int(41), countDeletion};
  return api()->XLA_FFI_State_Set(
      reinterpret_cast<XLA_FFI_State_Set_Args *>(&args));
}

XLA_FFI_Error *instantiateV2(XLA_FFI_CallFrame *frame) {
  // 0.2's arguments end at `state`; the deleter is the type's.
  StateSetV1 args{offsetof(StateSetV1, deleter),
                  nullptr,
                  frame->ctx,
                  &stateType,
                  new int(41),
                  nullptr};
  return api()->XLA_FFI_State_Set(
      reinterpret_cast<XLA_FFI_State_Set_Args *>(&args));
}

XLA_FFI_Error *instantiateV3(XLA_FFI_CallFrame *frame) {
  XLA_FFI_State_Set_Args args{};
  args.struct_size = XLA_FFI_State_Set_Args_STRUCT_SIZE;
  args.ctx = frame->ctx;
  args.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
  args.type_id = &stateType;
  args.state = new int(41);
  return api()->XLA_FFI_State_Set(&args);
}

template <int Minor> XLA_FFI_Error *executeWithState(XLA_FFI_CallFrame *frame) {
  if (answered<Minor>(frame))
    return nullptr;
  void *state = nullptr;
  XLA_FFI_Error *failure;
  if (Minor >= 3) {
    XLA_FFI_State_Get_Args args{};
    args.struct_size = XLA_FFI_State_Get_Args_STRUCT_SIZE;
    args.ctx = frame->ctx;
    args.type_id = &stateType;
    failure = api()->XLA_FFI_State_Get(&args);
    state = args.state;
  } else {
    StateGetV1 args{sizeof(StateGetV1), nullptr, frame->ctx, &stateType,
                    nullptr};
    failure = api()->XLA_FFI_State_Get(
        reinterpret_cast<XLA_FFI_State_Get_Args *>(&args));
    state = args.state;
  }
  if (failure)
    return failure;
  auto *y = static_cast<XLA_FFI_Buffer *>(frame->rets.rets[0]);
  static_cast<float *>(y->data)[0] = float(++*static_cast<int *>(state));
  return nullptr;
}

TEST_F(NxrtFfi, StateOfEveryApiVersionLivesAsLongAsTheProgram) {
  static const XLA_FFI_TypeInfo info{XLA_FFI_TypeInfo_STRUCT_SIZE, nullptr,
                                     countDeletion};
  // With the size XLA's 0.4 header declares for these arguments: up to
  // type_id, with type_info set after it. The 0.2 to 0.4 states below are
  // deleted by the type's deleter.
  XLA_FFI_Type_Register_Args type{};
  type.struct_size = offsetof(XLA_FFI_Type_Register_Args, type_info);
  type.name = {"ffi_test.State", 14};
  type.type_id = &stateType;
  type.type_info = &info;
  ASSERT_EQ(api()->XLA_FFI_Type_Register(&type), nullptr);
  registerExecute("ffi_test.state1", executeWithState<1>, instantiateV1);
  registerExecute("ffi_test.state2", executeWithState<2>, instantiateV2);
  registerExecute("ffi_test.state3", executeWithState<3>, instantiateV3);
  registerExecute("ffi_test.state4", executeWithState<4>, instantiateV3);
  deleted = 0;
  for (const char *target : {"ffi_test.state1", "ffi_test.state2",
                             "ffi_test.state3", "ffi_test.state4"}) {
    nxrt_site_t *site = addSite(NXRT_SITE_CUSTOM_CALL, target);
    for (float expected : {42.f, 43.f}) {
      nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
      NXRT_EXPECT_OK(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
      NXRT_EXPECT_OK(nxrt_run_end(run));
      EXPECT_EQ(y.data[0], expected) << target;
    }
  }
  EXPECT_EQ(deleted, 0);
  nxrt_program_destroy(program);
  program = nxrt_program_create(rt, "test");
  EXPECT_EQ(deleted, 4);
}

XLA_FFI_Error *noState(XLA_FFI_CallFrame *frame) {
  return executeWithState<3>(frame);
}

TEST_F(NxrtFfi, ReadingStateNoStageSetFails) {
  registerExecute("ffi_test.no_state", noState);
  EXPECT_EQ(message(runOnce("ffi_test.no_state")),
            "custom call @ffi_test.no_state at ffi.mlir:4:2 failed: the call "
            "site has no state: its instantiate stage set none");
}

// Completes its future from another thread, with an error when x[0] < 0.
XLA_FFI_Error *later(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  XLA_FFI_Future_Create_Args create{};
  create.struct_size = XLA_FFI_Future_Create_Args_STRUCT_SIZE;
  if (XLA_FFI_Error *e = api()->XLA_FFI_Future_Create(&create))
    return e;
  auto *x = static_cast<XLA_FFI_Buffer *>(frame->args.args[0]);
  bool fail = static_cast<float *>(x->data)[0] < 0;
  XLA_FFI_Future *future = create.future;
  std::thread([future, fail] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (fail) {
      XLA_FFI_Future_SetError_Args args{};
      args.struct_size = XLA_FFI_Future_SetError_Args_STRUCT_SIZE;
      args.future = future;
      args.error = error(XLA_FFI_Error_Code_DATA_LOSS, "lost it");
      api()->XLA_FFI_Future_SetError(&args);
    } else {
      XLA_FFI_Future_SetAvailable_Args args{};
      args.struct_size = XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE;
      args.future = future;
      api()->XLA_FFI_Future_SetAvailable(&args);
    }
  }).detach();
  frame->future = future;
  return nullptr;
}

TEST_F(NxrtFfi, TheCallWaitsForItsFutureAndTakesItsError) {
  registerExecute("ffi_test.later", later);
  NXRT_EXPECT_OK(runOnce("ffi_test.later").release());
  x.data[0] = -1;
  Status s = runOnce("ffi_test.later");
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DATA_LOSS);
  EXPECT_EQ(message(s),
            "custom call @ffi_test.later at ffi.mlir:4:2 failed: lost it");
}

XLA_FFI_Error *never(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  XLA_FFI_Future_Create_Args create{};
  create.struct_size = XLA_FFI_Future_Create_Args_STRUCT_SIZE;
  if (XLA_FFI_Error *e = api()->XLA_FFI_Future_Create(&create))
    return e;
  // Completed after the runtime gave up: the future must still be alive.
  XLA_FFI_Future *future = create.future;
  std::thread([future] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    XLA_FFI_Future_SetAvailable_Args args{};
    args.struct_size = XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE;
    args.future = future;
    api()->XLA_FFI_Future_SetAvailable(&args);
  }).detach();
  frame->future = future;
  return nullptr;
}

TEST_F(NxrtFfi, AFutureLateForTheDeadlineFailsTheRunPromptly) {
  registerExecute("ffi_test.never", never);
  nxrt_site_t *site = addSite(NXRT_SITE_CUSTOM_CALL, "ffi_test.never");
  nxrt_run_options_t options{50};
  auto start = std::chrono::steady_clock::now();
  nxrt_run_t *run = nxrt_run_begin(rt, &options);
  nxrt_status_free(nxrt_invoke(run, site, &x.view, 1, &y.view, 1));
  Status s(nxrt_run_end(run));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  // Lets the late completion happen while the test still runs.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
}

// Sums x on the thread pool, a task per element, and waits for them.
struct SumTask {
  std::atomic<float> *sum;
  std::atomic<int> *left;
  float value;
};

XLA_FFI_Error *poolSum(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  auto *x = static_cast<XLA_FFI_Buffer *>(frame->args.args[0]);
  auto *y = static_cast<XLA_FFI_Buffer *>(frame->rets.rets[0]);
  std::atomic<float> sum{0};
  std::atomic<int> left{static_cast<int>(x->dims[0])};
  std::vector<SumTask> tasks;
  for (int64_t i = 0; i < x->dims[0]; ++i)
    tasks.push_back({&sum, &left, static_cast<float *>(x->data)[i]});
  for (SumTask &task : tasks) {
    XLA_FFI_ThreadPool_Schedule_Args args{};
    args.struct_size = XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE;
    args.ctx = frame->ctx;
    args.task = [](void *data) {
      auto *t = static_cast<SumTask *>(data);
      float old = t->sum->load();
      while (!t->sum->compare_exchange_weak(old, old + t->value)) {
      }
      t->left->fetch_sub(1);
    };
    args.data = &task;
    if (XLA_FFI_Error *e = api()->XLA_FFI_ThreadPool_Schedule(&args))
      return e;
  }
  while (left.load() > 0)
    std::this_thread::yield();
  static_cast<float *>(y->data)[0] = sum.load();
  return nullptr;
}

TEST_F(NxrtFfi, TasksRunOnThePoolAndFinishBeforeTheHandlerReturns) {
  registerExecute("ffi_test.pool_sum", poolSum);
  NXRT_ASSERT_OK(runOnce("ffi_test.pool_sum").release());
  EXPECT_EQ(y.data[0], 3.0f);
}

std::vector<std::string> platformErrors;

XLA_FFI_Error *asksForDevice(XLA_FFI_CallFrame *frame) {
  if (answered<3>(frame))
    return nullptr;
  platformErrors.clear();
  XLA_FFI_Stream_Get_Args stream{};
  stream.struct_size = XLA_FFI_Stream_Get_Args_STRUCT_SIZE;
  stream.ctx = frame->ctx;
  platformErrors.push_back(takeMessage(api()->XLA_FFI_Stream_Get(&stream)));
  XLA_FFI_DeviceMemory_Allocate_Args alloc{};
  alloc.struct_size = XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE;
  alloc.ctx = frame->ctx;
  alloc.size = 16;
  platformErrors.push_back(
      takeMessage(api()->XLA_FFI_DeviceMemory_Allocate(&alloc)));
  static XLA_FFI_TypeId userType{0};
  if (userType.type_id == 0) {
    XLA_FFI_Type_Register_Args type{};
    type.struct_size = XLA_FFI_Type_Register_Args_STRUCT_SIZE;
    type.name = {"ffi_test.User", 13};
    type.type_id = &userType;
    takeMessage(api()->XLA_FFI_Type_Register(&type));
  }
  XLA_FFI_ExecutionContext_Get_Args get{};
  get.struct_size = XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE;
  get.ctx = frame->ctx;
  get.type_id = &userType;
  std::string got = takeMessage(api()->XLA_FFI_ExecutionContext_Get(&get));
  platformErrors.push_back(get.data ? *static_cast<std::string *>(get.data)
                                    : got);
  return nullptr;
}

TEST_F(NxrtFfi, DevicesAreUnimplementedAndContextDataComesFromTheHost) {
  registerExecute("ffi_test.device", asksForDevice);
  NXRT_ASSERT_OK(runOnce("ffi_test.device").release());
  ASSERT_EQ(platformErrors.size(), 3u);
  EXPECT_EQ(platformErrors[0],
            "XLA_FFI_Stream_Get: the Host platform has no device stream");
  EXPECT_EQ(platformErrors[1], "XLA_FFI_DeviceMemory_Allocate: the Host "
                               "platform has no device memory");
  EXPECT_NE(platformErrors[2].find("no execution context data of type id"),
            std::string::npos);
  // The handler registered the type; look its id up the same way.
  XLA_FFI_TypeId userType{0};
  XLA_FFI_Type_Register_Args type{};
  type.struct_size = XLA_FFI_Type_Register_Args_STRUCT_SIZE;
  type.name = {"ffi_test.User", 13};
  type.type_id = &userType;
  ASSERT_EQ(api()->XLA_FFI_Type_Register(&type), nullptr);
  std::string data = "from the host";
  NXRT_ASSERT_OK(nxrt_ffi_set_context_data(rt, userType.type_id, &data));
  NXRT_ASSERT_OK(runOnce("ffi_test.device").release());
  EXPECT_EQ(platformErrors[2], "from the host");
}

} // namespace
