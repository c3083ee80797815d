//===- ApiTest.cpp - Status, dtypes, registration, programs ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace nxrt_test;

extern "C" int nxrt_c_smoke(void);
extern "C" int nxrt_c_stream_handle_smoke(void); // CAbiSmoke.c

namespace {

TEST(NxrtApi, UsableFromPlainC) { EXPECT_EQ(nxrt_c_smoke(), 0); }

TEST(NxrtApi, StreamHandleHeaderUsableFromPlainC) {
  EXPECT_EQ(nxrt_c_stream_handle_smoke(), 0);
}

nxrt_status_t *noop(void *, const nxrt_call_t *) { return nullptr; }

TEST(NxrtApi, VersionMatchesHeader) {
  EXPECT_EQ(nxrt_api_version(), static_cast<uint32_t>(NXRT_API_VERSION));
}

TEST(NxrtApi, StatusCreateReadFree) {
  EXPECT_EQ(nxrt_status_create(NXRT_OK, "ignored"), nullptr);
  EXPECT_EQ(nxrt_status_code(nullptr), NXRT_OK);
  EXPECT_STREQ(nxrt_status_message(nullptr), "");
  Status s(nxrt_status_create(NXRT_NOT_FOUND, "no such thing"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_NOT_FOUND);
  EXPECT_STREQ(nxrt_status_message(s.get()), "no such thing");
  Status nullMsg(nxrt_status_create(NXRT_INTERNAL, nullptr));
  EXPECT_STREQ(nxrt_status_message(nullMsg.get()), "");
  Status bogus(nxrt_status_create(static_cast<nxrt_status_code_t>(99), "x"));
  EXPECT_EQ(nxrt_status_code(bogus.get()), NXRT_UNKNOWN);
  nxrt_status_free(nullptr);
}

TEST(NxrtApi, DTypeSizesAndNames) {
  struct {
    nxrt_dtype_t dtype;
    size_t size;
    const char *name;
  } cases[] = {{NXRT_PRED, 1, "i1"},           {NXRT_I8, 1, "i8"},
               {NXRT_I16, 2, "i16"},           {NXRT_I32, 4, "i32"},
               {NXRT_I64, 8, "i64"},           {NXRT_U8, 1, "ui8"},
               {NXRT_U16, 2, "ui16"},          {NXRT_U32, 4, "ui32"},
               {NXRT_U64, 8, "ui64"},          {NXRT_F16, 2, "f16"},
               {NXRT_BF16, 2, "bf16"},         {NXRT_F32, 4, "f32"},
               {NXRT_F64, 8, "f64"},           {NXRT_C64, 8, "complex<f32>"},
               {NXRT_C128, 16, "complex<f64>"}};
  for (const auto &c : cases) {
    EXPECT_EQ(nxrt_dtype_size(c.dtype), c.size) << c.name;
    EXPECT_STREQ(nxrt_dtype_name(c.dtype), c.name);
  }
  // A token has a name but no elements.
  EXPECT_EQ(nxrt_dtype_size(NXRT_TOKEN), 0u);
  EXPECT_STREQ(nxrt_dtype_name(NXRT_TOKEN), "token");
  nxrt_tensor_t token{NXRT_TOKEN, 0, nullptr, nullptr};
  char type[32];
  nxrt_tensor_type_string(&token, type, sizeof(type));
  EXPECT_STREQ(type, "!nx.token");
  EXPECT_EQ(nxrt_dtype_size(NXRT_DTYPE_INVALID), 0u);
  EXPECT_EQ(nxrt_dtype_size(static_cast<nxrt_dtype_t>(77)), 0u);
  EXPECT_STREQ(nxrt_dtype_name(static_cast<nxrt_dtype_t>(77)), "invalid");
}

TEST(NxrtApi, TensorTypesCompareAndPrint) {
  int64_t dims[] = {2, 3}, other[] = {2, 4};
  float data[6];
  nxrt_tensor_t a{NXRT_F32, 2, dims, data};
  nxrt_tensor_t b{NXRT_F32, 2, dims, nullptr};
  nxrt_tensor_t wider{NXRT_F32, 2, other, nullptr};
  nxrt_tensor_t ints{NXRT_I32, 2, dims, nullptr};
  nxrt_tensor_t scalar{NXRT_F32, 0, nullptr, nullptr};
  EXPECT_EQ(nxrt_tensor_same_type(&a, &b), 1);
  EXPECT_EQ(nxrt_tensor_same_type(&a, &wider), 0);
  EXPECT_EQ(nxrt_tensor_same_type(&a, &ints), 0);
  EXPECT_EQ(nxrt_tensor_same_type(&a, &scalar), 0);
  EXPECT_EQ(nxrt_tensor_same_type(&a, nullptr), 0);

  char buffer[32];
  EXPECT_EQ(nxrt_tensor_type_string(&a, buffer, sizeof(buffer)), 15u);
  EXPECT_STREQ(buffer, "tensor<2x3xf32>");
  EXPECT_EQ(nxrt_tensor_type_string(&scalar, buffer, sizeof(buffer)), 11u);
  EXPECT_STREQ(buffer, "tensor<f32>");
  // Cut to the buffer, with its NUL; the length says how much was needed.
  EXPECT_EQ(nxrt_tensor_type_string(&a, buffer, 8), 15u);
  EXPECT_STREQ(buffer, "tensor<");
  EXPECT_EQ(nxrt_tensor_type_string(&ints, nullptr, 0), 15u);
  int64_t dynamic[] = {-1, 3};
  nxrt_tensor_t signature{NXRT_I32, 2, dynamic, nullptr};
  EXPECT_EQ(nxrt_tensor_type_string(&signature, buffer, sizeof(buffer)), 15u);
  EXPECT_STREQ(buffer, "tensor<?x3xi32>");
}

TEST(NxrtApi, TensorByteSize) {
  int64_t dims[] = {2, 3, 4};
  nxrt_tensor_t t{NXRT_F64, 3, dims, nullptr};
  EXPECT_EQ(nxrt_tensor_byte_size(&t), 2u * 3 * 4 * 8);
  nxrt_tensor_t scalar{NXRT_I16, 0, nullptr, nullptr};
  EXPECT_EQ(nxrt_tensor_byte_size(&scalar), 2u);
  nxrt_tensor_t noDims{NXRT_F32, 2, nullptr, nullptr};
  EXPECT_EQ(nxrt_tensor_byte_size(&noDims), 0u);
  int64_t negative[] = {2, -1};
  nxrt_tensor_t neg{NXRT_F32, 2, negative, nullptr};
  EXPECT_EQ(nxrt_tensor_byte_size(&neg), 0u);
  int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 40};
  nxrt_tensor_t overflow{NXRT_F32, 2, huge, nullptr};
  EXPECT_EQ(nxrt_tensor_byte_size(&overflow), 0u);
  EXPECT_EQ(nxrt_tensor_byte_size(nullptr), 0u);
}

TEST(NxrtApi, RuntimeCreateDestroy) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  ASSERT_NE(rt, nullptr);
  nxrt_runtime_destroy(rt);
  nxrt_runtime_destroy(nullptr);
}

// libomp's idle workers must not spin for its default 200 ms (the BLAS
// needs the cores), but a value the user set is theirs.
TEST(NxrtApi, RuntimeLimitsOpenMPSpinning) {
  const char *before = std::getenv("KMP_BLOCKTIME");
  std::string userValue = before ? before : "";
  nxrt_runtime_t *rt = nxrt_runtime_create();
  const char *after = std::getenv("KMP_BLOCKTIME");
  ASSERT_NE(after, nullptr);
  if (before)
    EXPECT_EQ(userValue, after);
  else
    EXPECT_STREQ(after, "1");
  nxrt_runtime_destroy(rt);
}

TEST(NxrtApi, NullRuntimeIsRejected) {
  EXPECT_EQ(nxrt_program_create(nullptr, "p"), nullptr);
  EXPECT_EQ(nxrt_run_begin(nullptr, nullptr), nullptr);
  EXPECT_EQ(nxrt_run_current(), nullptr);
  nxrt_stream_t *stream = nullptr;
  Status s(nxrt_stream_open(nullptr, "s", &stream));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INVALID_ARGUMENT);
  nxrt_request_t *req = nullptr;
  Status p(nxrt_bridge_pull(nullptr, 1, &req));
  EXPECT_EQ(nxrt_status_code(p.get()), NXRT_INVALID_ARGUMENT);
  Status r(nxrt_bridge_reply(nullptr, 1, nullptr, nullptr, 0));
  EXPECT_EQ(nxrt_status_code(r.get()), NXRT_INVALID_ARGUMENT);
  nxrt_bridge_set_hook(nullptr, nullptr, nullptr);
  nxrt_bridge_close(nullptr);
}

TEST(NxrtApi, RegistrationErrors) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_callback_desc_t inlineDesc{NXRT_DISPATCH_INLINE, noop, nullptr, 0};
  NXRT_EXPECT_OK(nxrt_register_callback(rt, "f", &inlineDesc));

  Status dup(nxrt_register_callback(rt, "f", &inlineDesc));
  EXPECT_EQ(nxrt_status_code(dup.get()), NXRT_ALREADY_EXISTS);
  EXPECT_EQ(message(dup), "callback @f is already registered");

  nxrt_callback_desc_t noFn{NXRT_DISPATCH_INLINE, nullptr, nullptr, 0};
  Status s1(nxrt_register_callback(rt, "g", &noFn));
  EXPECT_EQ(message(s1), "inline callback @g has no handler");

  nxrt_callback_desc_t bridgeFn{NXRT_DISPATCH_BRIDGE, noop, nullptr, 0};
  Status s2(nxrt_register_callback(rt, "h", &bridgeFn));
  EXPECT_EQ(nxrt_status_code(s2.get()), NXRT_INVALID_ARGUMENT);

  nxrt_callback_desc_t badMode{static_cast<nxrt_dispatch_mode_t>(7), noop,
                               nullptr, 0};
  Status s3(nxrt_register_callback(rt, "i", &badMode));
  EXPECT_EQ(message(s3), "callback @i has invalid dispatch mode 7");

  Status s4(nxrt_register_callback(rt, "", &inlineDesc));
  EXPECT_EQ(message(s4), "callback name is empty");
  Status s5(nxrt_register_callback(rt, "j", nullptr));
  EXPECT_EQ(nxrt_status_code(s5.get()), NXRT_INVALID_ARGUMENT);
  Status s6(nxrt_register_callback(nullptr, "k", &inlineDesc));
  EXPECT_EQ(nxrt_status_code(s6.get()), NXRT_INVALID_ARGUMENT);

  // Targets are a separate namespace from callbacks.
  NXRT_EXPECT_OK(nxrt_register_custom_call(rt, "f", noop, nullptr));
  Status s7(nxrt_register_custom_call(rt, "f", noop, nullptr));
  EXPECT_EQ(message(s7), "custom-call target @f is already registered");
  Status s8(nxrt_register_custom_call(rt, NXRT_QR_F32_TARGET, noop, nullptr));
  EXPECT_EQ(nxrt_status_code(s8.get()), NXRT_ALREADY_EXISTS)
      << "built-in targets are registered on creation";
  Status s9(nxrt_register_custom_call(rt, "t", nullptr, nullptr));
  EXPECT_EQ(message(s9), "custom-call target @t has no handler");
  nxrt_runtime_destroy(rt);
}

TEST(NxrtApi, ProgramSitesHaveDenseIds) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_program_t *p = nxrt_program_create(rt, "p");
  EXPECT_EQ(nxrt_program_num_sites(p), 0u);
  nxrt_site_t *a = nxrt_program_add_site(p, NXRT_SITE_ELIXIR_CALL, "a",
                                         "a.mlir:1:2", nullptr, 0, nullptr);
  nxrt_site_t *b = nxrt_program_add_site(p, NXRT_SITE_CUSTOM_CALL, "b",
                                         "a.mlir:3:4", nullptr, 0, nullptr);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(nxrt_site_id(a), 0u);
  EXPECT_EQ(nxrt_site_id(b), 1u);
  EXPECT_EQ(nxrt_program_site(p, 0), a);
  EXPECT_EQ(nxrt_program_site(p, 1), b);
  EXPECT_EQ(nxrt_program_site(p, 2), nullptr);
  EXPECT_EQ(nxrt_program_num_sites(p), 2u);
  nxrt_program_destroy(p);
  nxrt_program_destroy(nullptr);
  nxrt_runtime_destroy(rt);
}

/// A site record followed by its bytes, as compiled code lays them out.
struct RecordWithBytes {
  nxrt_site_record_t record;
  char bytes[48];

  RecordWithBytes(RecordWithBytes *next, int64_t kind, const char *name,
                  const char *location) {
    std::memset(bytes, 0, sizeof bytes);
    size_t nameSize = std::strlen(name) + 1;
    std::memcpy(bytes, name, nameSize);
    std::memcpy(bytes + nameSize, location, std::strlen(location) + 1);
    record = {next ? &next->record : nullptr, nullptr, kind, 0,
              static_cast<int64_t>(nameSize), 0,       0};
  }
};
static_assert(offsetof(RecordWithBytes, bytes) == sizeof(nxrt_site_record_t),
              "the bytes follow the record");

TEST(NxrtApi, AddSitesFollowsTheList) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_program_t *p = nxrt_program_create(rt, "p");
  RecordWithBytes third(nullptr, NXRT_SITE_CUSTOM_CALL, "c", "a.mlir:5:6");
  RecordWithBytes second(&third, NXRT_SITE_IO_CALLBACK, "b", "a.mlir:3:4");
  RecordWithBytes first(&second, NXRT_SITE_ELIXIR_CALL, "a", "a.mlir:1:2");
  EXPECT_EQ(nxrt_program_add_sites(p, &first.record), nullptr);
  ASSERT_EQ(nxrt_program_num_sites(p), 3u);
  EXPECT_EQ(first.record.site, nxrt_program_site(p, 0));
  EXPECT_EQ(second.record.site, nxrt_program_site(p, 1));
  EXPECT_EQ(third.record.site, nxrt_program_site(p, 2));
  EXPECT_EQ(nxrt_program_add_sites(p, nullptr), nullptr);
  EXPECT_EQ(nxrt_program_num_sites(p), 3u);

  // The first error stops the list; the sites before it stay.
  RecordWithBytes after(nullptr, NXRT_SITE_ELIXIR_CALL, "y", "b.mlir:9:1");
  RecordWithBytes bad(&after, 9, "x", "b.mlir:7:8");
  RecordWithBytes before(&bad, NXRT_SITE_ELIXIR_CALL, "w", "b.mlir:1:1");
  Status error(nxrt_program_add_sites(p, &before.record));
  EXPECT_EQ(message(error), "invalid call site kind 9 at b.mlir:7:8");
  EXPECT_NE(before.record.site, nullptr);
  EXPECT_EQ(after.record.site, nullptr);
  EXPECT_EQ(nxrt_program_num_sites(p), 4u);

  RecordWithBytes huge(nullptr, int64_t{1} << 40, "z", "c.mlir:1:1");
  Status malformed(nxrt_program_add_sites(p, &huge.record));
  EXPECT_EQ(message(malformed),
            "malformed site record at c.mlir:1:1: kind 1099511627776, "
            "offsets 0 2 0, 0 attribute bytes");
  Status noProgram(nxrt_program_add_sites(nullptr, &huge.record));
  EXPECT_EQ(message(noProgram), "program is null");
  nxrt_program_destroy(p);
  nxrt_runtime_destroy(rt);
}

TEST(NxrtApi, AddSiteRejectsBadKindAndAttributes) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_program_t *p = nxrt_program_create(rt, nullptr);
  nxrt_status_t *error = nullptr;
  EXPECT_EQ(nxrt_program_add_site(p, static_cast<nxrt_site_kind_t>(9), "f",
                                  "m.mlir:2:3", nullptr, 0, &error),
            nullptr);
  EXPECT_STREQ(nxrt_status_message(error),
               "invalid call site kind 9 at m.mlir:2:3");
  nxrt_status_free(error);

  error = nullptr;
  const uint8_t garbage[] = {0x06, 0x01, 0x00};
  EXPECT_EQ(nxrt_program_add_site(p, NXRT_SITE_CUSTOM_CALL, "f", "m.mlir:2:3",
                                  garbage, sizeof garbage, &error),
            nullptr);
  EXPECT_STREQ(nxrt_status_message(error),
               "custom call @f at m.mlir:2:3: malformed attributes at byte 1 "
               "of 3: truncated dict length");
  nxrt_status_free(error);

  error = nullptr;
  EXPECT_EQ(nxrt_program_add_site(p, NXRT_SITE_ELIXIR_CALL, "", "m.mlir:2:3",
                                  nullptr, 0, &error),
            nullptr);
  EXPECT_STREQ(nxrt_status_message(error),
               "call site at m.mlir:2:3 has no callee name");
  nxrt_status_free(error);

  error = nullptr;
  auto attrs = Attrs().str("timeout_ms", "soon").encode();
  EXPECT_EQ(nxrt_program_add_site(p, NXRT_SITE_INFEED, nullptr, "m.mlir:5:1",
                                  attrs.data(), attrs.size(), &error),
            nullptr);
  EXPECT_STREQ(nxrt_status_message(error),
               "infeed at m.mlir:5:1: attribute 'timeout_ms' has type string, "
               "expected i64");
  nxrt_status_free(error);

  // A NULL error pointer is allowed.
  EXPECT_EQ(nxrt_program_add_site(p, static_cast<nxrt_site_kind_t>(9), "f", "x",
                                  nullptr, 0, nullptr),
            nullptr);
  EXPECT_EQ(nxrt_program_num_sites(p), 0u);
  nxrt_program_destroy(p);
  nxrt_runtime_destroy(rt);
}

} // namespace

// Compiled code allocates and frees its intermediate tensors on every call:
// with a runtime, blocks of up to 32 MiB come from malloc's heap, not from a
// fresh mmap each (whose pages fault in every time).
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) &&                    \
    !defined(__SANITIZE_THREAD__)
TEST(NxrtApi, RuntimeKeepsLargeBuffersInTheHeap) {
  nxrt_runtime_t *runtime = nxrt_runtime_create();
  size_t mappedBefore = mallinfo2().hblkhd;
  void *buffer = std::malloc(16 << 20);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(mallinfo2().hblkhd, mappedBefore);
  std::free(buffer);
  nxrt_runtime_destroy(runtime);
}
#endif
