//===- StreamsTest.cpp - Named streams, infeed/outfeed sites --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <random>
#include <thread>

#include "TestUtil.h"

using namespace nxrt_test;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<uint8_t> handleBytesOf(const char *name) {
  std::vector<uint8_t> bytes(nxrt_stream_handle_encode(name, nullptr, 0));
  EXPECT_EQ(nxrt_stream_handle_encode(name, bytes.data(), bytes.size()),
            bytes.size());
  return bytes;
}

TEST(NxrtStreamHandle, EncodingIsTheDocumentedLayout) {
  std::vector<uint8_t> h = handleBytesOf("s1");
  std::vector<uint8_t> want = {'N', 'X', 'S', 'H', 1, 0,   0,
                               0,   2,   0,   0,   0, 's', '1'};
  EXPECT_EQ(h, want);
  EXPECT_EQ(nxrt_stream_handle_encode("", nullptr, 0), 0u);
  EXPECT_EQ(nxrt_stream_handle_encode(nullptr, nullptr, 0), 0u);
  std::string tooLong(NXRT_STREAM_NAME_MAX + 1, 'x');
  EXPECT_EQ(nxrt_stream_handle_encode(tooLong.c_str(), nullptr, 0), 0u);
  uint8_t small[4] = {9, 9, 9, 9};
  EXPECT_EQ(nxrt_stream_handle_encode("abc", small, sizeof small), 15u);
  EXPECT_EQ(small[0], 9) << "nothing written when the buffer is too small";
}

class NxrtStreams : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    NXRT_ASSERT_OK(nxrt_stream_open(rt, "s", &stream));
    handleBytes = handleBytesOf("s");
    handleDims[0] = static_cast<int64_t>(handleBytes.size());
    handle = {NXRT_U8, 1, handleDims, handleBytes.data()};
    outfeed = addSite(NXRT_SITE_OUTFEED, nullptr, "feed.mlir:1:1");
    infeed = addSite(NXRT_SITE_INFEED, nullptr, "feed.mlir:2:1");
  }
  void TearDown() override {
    nxrt_stream_destroy(stream);
    RuntimeTest::TearDown();
  }

  // Runs one infeed; payload results in `out`, tag in/out as u64.
  Status runInfeed(nxrt_site_t *site, uint64_t tagIn, uint64_t *tagOut,
                   std::vector<nxrt_tensor_t> out, int64_t runTimeoutMs = 0,
                   nxrt_tensor_t *handleOverride = nullptr) {
    Tensor<uint8_t> tag(NXRT_U8, {8});
    Tensor<uint8_t> next(NXRT_U8, {8});
    for (int k = 0; k < 8; ++k)
      tag.data[k] = static_cast<uint8_t>(tagIn >> (8 * k));
    nxrt_tensor_t args[] = {handleOverride ? *handleOverride : handle,
                            tag.view};
    out.insert(out.begin(), next.view);
    nxrt_run_options_t opts{runTimeoutMs};
    nxrt_run_t *run = nxrt_run_begin(rt, &opts);
    nxrt_status_free(nxrt_invoke(run, site, args, 2, out.data(), out.size()));
    Status s(nxrt_run_end(run));
    if (tagOut) {
      *tagOut = 0;
      for (int k = 0; k < 8; ++k)
        *tagOut |= uint64_t(next.data[k]) << (8 * k);
    }
    return s;
  }

  Status runOutfeed(std::vector<nxrt_tensor_t> payload,
                    nxrt_tensor_t *flag = nullptr,
                    nxrt_tensor_t *handleOverride = nullptr) {
    payload.insert(payload.begin(), handleOverride ? *handleOverride : handle);
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(nxrt_invoke(run, outfeed, payload.data(), payload.size(),
                                 flag, flag ? 1 : 0));
    return Status(nxrt_run_end(run));
  }

  nxrt_stream_t *stream = nullptr;
  std::vector<uint8_t> handleBytes;
  int64_t handleDims[1];
  nxrt_tensor_t handle;
  nxrt_site_t *outfeed = nullptr;
  nxrt_site_t *infeed = nullptr;
};

TEST_F(NxrtStreams, OpenTwiceAndReopenAfterClose) {
  nxrt_stream_t *dup = nullptr;
  Status s(nxrt_stream_open(rt, "s", &dup));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_ALREADY_EXISTS);
  EXPECT_EQ(message(s), "stream 's' is already open");
  EXPECT_EQ(dup, nullptr);
  Status empty(nxrt_stream_open(rt, "", &dup));
  EXPECT_EQ(message(empty), "stream name is empty");

  nxrt_stream_close(stream);
  nxrt_stream_close(stream); // idempotent
  nxrt_stream_t *again = nullptr;
  NXRT_ASSERT_OK(nxrt_stream_open(rt, "s", &again));
  nxrt_stream_destroy(again);
  nxrt_stream_destroy(nullptr);
}

// A value larger than the allocator grants fails its push with the size,
// and the stream goes on working.
TEST_F(NxrtStreams, ValueTooLargeForMemoryFailsThePush) {
  float small = 1;
  int64_t dims[1] = {int64_t{1} << 42};
  nxrt_tensor_t huge{NXRT_F32, 1, dims, &small};
  Status s(nxrt_stream_push_infeed(stream, &huge, 1));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_RESOURCE_EXHAUSTED);
  EXPECT_EQ(message(s),
            "out of memory for tensor 0 of the value (17592186044416 bytes)");
  Tensor<float> a(NXRT_F32, {2}, {1, 2});
  NXRT_EXPECT_OK(nxrt_stream_push_infeed(stream, &a.view, 1));
  EXPECT_EQ(nxrt_stream_infeed_size(stream), 1u);
}

TEST_F(NxrtStreams, OutfeedCopiesPayloadAndSetsFlag) {
  Tensor<float> a(NXRT_F32, {2, 2}, {1, 2, 3, 4});
  Tensor<int64_t> b(NXRT_I64, {}, {7});
  Tensor<uint8_t> flag(NXRT_U8, {}, {0});
  Status s = runOutfeed({a.view, b.view}, &flag.view);
  ASSERT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(flag.data[0], 1);
  a.data[0] = -1; // the program reuses its buffer
  EXPECT_EQ(nxrt_stream_outfeed_size(stream), 1u);

  nxrt_value_t *v = nullptr;
  NXRT_ASSERT_OK(nxrt_stream_pop_outfeed(stream, 100, &v));
  ASSERT_EQ(nxrt_value_size(v), 2u);
  const nxrt_tensor_t *t0 = nxrt_value_tensor(v, 0);
  EXPECT_EQ(t0->dtype, NXRT_F32);
  EXPECT_EQ(t0->rank, 2);
  EXPECT_NE(t0->data, a.data.data());
  EXPECT_EQ(static_cast<const float *>(t0->data)[0], 1);
  EXPECT_EQ(static_cast<const float *>(t0->data)[3], 4);
  EXPECT_EQ(*static_cast<const int64_t *>(nxrt_value_tensor(v, 1)->data), 7);
  EXPECT_EQ(nxrt_value_tensor(v, 2), nullptr);
  nxrt_value_free(v);
  EXPECT_EQ(nxrt_stream_outfeed_size(stream), 0u);
}

TEST_F(NxrtStreams, OutfeedRejectsOddResults) {
  Tensor<float> a(NXRT_F32, {1});
  Tensor<float> notflag(NXRT_F32, {2});
  Status s = runOutfeed({a.view}, &notflag.view);
  EXPECT_EQ(message(s), "outfeed at feed.mlir:1:1 failed: expected no results "
                        "or one tensor<ui8>/tensor<i1> flag, got "
                        "(tensor<2xf32>)");
}

TEST_F(NxrtStreams, PopOutfeedTimesOutAndDrainsAfterClose) {
  nxrt_value_t *v = nullptr;
  auto start = Clock::now();
  Status s(nxrt_stream_pop_outfeed(stream, 30, &v));
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(message(s), "no outfeed value on stream 's' within 30 ms");

  Tensor<float> a(NXRT_F32, {1}, {5});
  ASSERT_EQ(runOutfeed({a.view}), nullptr);
  nxrt_stream_close(stream);
  NXRT_ASSERT_OK(nxrt_stream_pop_outfeed(stream, 0, &v));
  nxrt_value_free(v);
  Status drained(nxrt_stream_pop_outfeed(stream, 0, &v));
  EXPECT_EQ(nxrt_status_code(drained.get()), NXRT_FAILED_PRECONDITION);
  EXPECT_EQ(message(drained), "stream 's' was closed");
  Status push(nxrt_stream_push_infeed(stream, &a.view, 1));
  EXPECT_EQ(message(push), "stream 's' is closed");
}

TEST_F(NxrtStreams, CloseWakesBlockedOutfeedPop) {
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    nxrt_stream_close(stream);
  });
  nxrt_value_t *v = nullptr;
  Status s(nxrt_stream_pop_outfeed(stream, 0, &v));
  closer.join();
  EXPECT_EQ(message(s), "stream 's' was closed");
}

TEST_F(NxrtStreams, InfeedsConsumeInOrderAndThreadTheTag) {
  for (float v : {10.f, 20.f}) {
    Tensor<float> x(NXRT_F32, {2}, {v, v + 1});
    NXRT_ASSERT_OK(nxrt_stream_push_infeed(stream, &x.view, 1));
  }
  EXPECT_EQ(nxrt_stream_infeed_size(stream), 2u);
  Tensor<float> out(NXRT_F32, {2});
  uint64_t tag = 0;
  Status s1 = runInfeed(infeed, 0, &tag, {out.view});
  ASSERT_EQ(s1, nullptr) << message(s1);
  EXPECT_EQ(out.data, (std::vector<float>{10, 11}));
  EXPECT_EQ(tag, 1u);
  Status s2 = runInfeed(infeed, tag, &tag, {out.view});
  ASSERT_EQ(s2, nullptr) << message(s2);
  EXPECT_EQ(out.data, (std::vector<float>{20, 21}));
  EXPECT_EQ(tag, 2u);
  EXPECT_EQ(nxrt_stream_infeed_size(stream), 0u);
}

TEST_F(NxrtStreams, InfeedBlocksUntilValueArrives) {
  std::thread pusher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Tensor<int32_t> x(NXRT_I32, {}, {99});
    nxrt_status_free(nxrt_stream_push_infeed(stream, &x.view, 1));
  });
  Tensor<int32_t> out(NXRT_I32, {});
  Status s = runInfeed(infeed, 41, nullptr, {out.view});
  pusher.join();
  EXPECT_EQ(s, nullptr) << message(s);
  EXPECT_EQ(out.data[0], 99);
}

TEST_F(NxrtStreams, InfeedPayloadMismatchFailsAndConsumes) {
  Tensor<float> x(NXRT_F32, {3});
  NXRT_ASSERT_OK(nxrt_stream_push_infeed(stream, &x.view, 1));
  Tensor<float> out(NXRT_F32, {2});
  Status s = runInfeed(infeed, 0, nullptr, {out.view});
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(s), "infeed at feed.mlir:2:1 failed: expected the infeed "
                        "value from stream 's' to match (tensor<2xf32>), got "
                        "(tensor<3xf32>)");
  EXPECT_EQ(nxrt_stream_infeed_size(stream), 0u);
}

TEST_F(NxrtStreams, InfeedTimeoutFromAttributeAndRunDeadline) {
  nxrt_site_t *bounded = addSite(NXRT_SITE_INFEED, nullptr, "feed.mlir:9:9",
                                 Attrs().i64("timeout_ms", 30).encode());
  Tensor<float> out(NXRT_F32, {1});
  auto start = Clock::now();
  Status s = runInfeed(bounded, 0, nullptr, {out.view});
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_DEADLINE_EXCEEDED);
  EXPECT_EQ(message(s), "infeed at feed.mlir:9:9 timed out after 30 ms "
                        "waiting for stream 's'");

  Status r = runInfeed(infeed, 0, nullptr, {out.view}, /*runTimeoutMs=*/25);
  EXPECT_EQ(message(r), "infeed at feed.mlir:2:1 timed out after 25 ms (run "
                        "deadline) waiting for stream 's'");
}

TEST_F(NxrtStreams, StreamClosedMidRunWakesBlockedInfeed) {
  std::thread closer([&] {
    // Long enough for the infeed below to be blocked even on a loaded box.
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    nxrt_stream_close(stream);
  });
  Tensor<float> out(NXRT_F32, {1});
  auto start = Clock::now();
  Status s = runInfeed(infeed, 0, nullptr, {out.view});
  closer.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_FAILED_PRECONDITION);
  EXPECT_EQ(message(s),
            "infeed at feed.mlir:2:1 failed: stream 's' was closed");

  // Once closed the name is gone: both directions report a missing stream.
  Status o = runOutfeed({out.view});
  EXPECT_EQ(message(o), "outfeed at feed.mlir:1:1 failed: no stream named 's'");
}

TEST_F(NxrtStreams, EndedInfeedServesQueuedValuesThenFailsAtOnce) {
  Tensor<float> x(NXRT_F32, {1}, {7});
  NXRT_ASSERT_OK(nxrt_stream_push_infeed(stream, &x.view, 1));
  nxrt_stream_end_infeed(stream);
  nxrt_stream_end_infeed(stream); // idempotent
  nxrt_stream_end_infeed(nullptr);

  Status push(nxrt_stream_push_infeed(stream, &x.view, 1));
  EXPECT_EQ(nxrt_status_code(push.get()), NXRT_FAILED_PRECONDITION);
  EXPECT_EQ(message(push), "the infeed of stream 's' was ended");
  EXPECT_EQ(nxrt_stream_infeed_size(stream), 1u);

  Tensor<float> out(NXRT_F32, {1});
  Status first = runInfeed(infeed, 0, nullptr, {out.view});
  ASSERT_EQ(first, nullptr) << message(first);
  EXPECT_EQ(out.data[0], 7);

  // No deadline at all: only the end of the infeed can stop the wait.
  auto start = Clock::now();
  Status past = runInfeed(infeed, 1, nullptr, {out.view});
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(nxrt_status_code(past.get()), NXRT_OUT_OF_RANGE);
  EXPECT_EQ(message(past), "infeed at feed.mlir:2:1 failed: no more infeed "
                           "values on stream 's': the host ended its infeed "
                           "after 1 value(s)");

  // The outfeed side and the name are untouched.
  ASSERT_EQ(runOutfeed({x.view}), nullptr);
  nxrt_value_t *v = nullptr;
  NXRT_ASSERT_OK(nxrt_stream_pop_outfeed(stream, 100, &v));
  nxrt_value_free(v);
  nxrt_stream_t *dup = nullptr;
  Status open(nxrt_stream_open(rt, "s", &dup));
  EXPECT_EQ(nxrt_status_code(open.get()), NXRT_ALREADY_EXISTS);

  // Closing still wins over the end of the infeed.
  nxrt_stream_close(stream);
  Status closed(nxrt_stream_push_infeed(stream, &x.view, 1));
  EXPECT_EQ(message(closed), "stream 's' is closed");
}

TEST_F(NxrtStreams, EndingTheInfeedWakesBlockedInfeeds) {
  std::thread ender([&] {
    // Long enough for the infeeds below to be blocked even on a loaded box.
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    nxrt_stream_end_infeed(stream);
  });
  std::vector<Status> statuses(3);
  std::vector<std::thread> readers;
  for (Status &s : statuses)
    readers.emplace_back([&] {
      Tensor<float> out(NXRT_F32, {1});
      s = runInfeed(infeed, 0, nullptr, {out.view});
    });
  auto start = Clock::now();
  for (std::thread &t : readers)
    t.join();
  ender.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  for (Status &s : statuses) {
    EXPECT_EQ(nxrt_status_code(s.get()), NXRT_OUT_OF_RANGE);
    EXPECT_EQ(message(s), "infeed at feed.mlir:2:1 failed: no more infeed "
                          "values on stream 's': the host ended its infeed "
                          "after 0 value(s)");
  }
}

TEST_F(NxrtStreams, MissingStreamFailsRun) {
  std::vector<uint8_t> bytes = handleBytesOf("nope");
  int64_t dims[] = {static_cast<int64_t>(bytes.size())};
  nxrt_tensor_t other{NXRT_U8, 1, dims, bytes.data()};
  Tensor<float> out(NXRT_F32, {1});
  Status s = runInfeed(infeed, 0, nullptr, {out.view}, 0, &other);
  EXPECT_EQ(nxrt_status_code(s.get()), NXRT_NOT_FOUND);
  EXPECT_EQ(message(s),
            "infeed at feed.mlir:2:1 failed: no stream named 'nope'");
  Status o = runOutfeed({out.view}, nullptr, &other);
  EXPECT_EQ(message(o),
            "outfeed at feed.mlir:1:1 failed: no stream named 'nope'");
}

TEST_F(NxrtStreams, BadTagOperandsAreRejected) {
  Tensor<uint8_t> shortTag(NXRT_U8, {4});
  Tensor<uint8_t> next(NXRT_U8, {8});
  nxrt_tensor_t args[] = {handle, shortTag.view};
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  Status s(nxrt_invoke(run, infeed, args, 2, &next.view, 1));
  EXPECT_EQ(message(s), "infeed at feed.mlir:2:1 failed: expected operands "
                        "(stream handle, tensor<8xui8> tag), got "
                        "(tensor<13xui8>, tensor<4xui8>)");
  nxrt_status_free(nxrt_run_end(run));

  Tensor<uint8_t> tag(NXRT_U8, {8});
  Tensor<float> notTag(NXRT_F32, {8});
  nxrt_tensor_t args2[] = {handle, tag.view};
  run = nxrt_run_begin(rt, nullptr);
  Status s2(nxrt_invoke(run, infeed, args2, 2, &notTag.view, 1));
  EXPECT_EQ(message(s2), "infeed at feed.mlir:2:1 failed: expected the first "
                         "result to be the tensor<8xui8> next tag, got "
                         "(tensor<8xf32>)");
  nxrt_status_free(nxrt_run_end(run));
}

TEST_F(NxrtStreams, MalformedHandlesAreRejected) {
  struct Case {
    std::vector<uint8_t> bytes;
    nxrt_dtype_t dtype;
    const char *message;
  };
  std::vector<uint8_t> good = handleBytesOf("s");
  auto with = [&](size_t i, uint8_t v) {
    std::vector<uint8_t> b = good;
    b[i] = v;
    return b;
  };
  std::vector<Case> cases = {
      {good, NXRT_I8,
       "invalid stream handle: expected a tensor<Nxui8>, got "
       "tensor<13xi8>"},
      {{'N', 'X', 'S', 'H'},
       NXRT_U8,
       "invalid stream handle: 4 bytes is shorter than the 12-byte header "
       "plus a name"},
      {with(0, 'Q'), NXRT_U8,
       "invalid stream handle: bad magic 51 58 53 48, expected \"NXSH\""},
      {with(4, 2), NXRT_U8, "invalid stream handle: version 2, expected 1"},
      {with(6, 1), NXRT_U8,
       "invalid stream handle: reserved bytes 5..7 are not zero"},
      {with(8, 5), NXRT_U8,
       "invalid stream handle: name length 5 does not match the 1 bytes after "
       "the header"},
      {with(11, 0x80), NXRT_U8,
       "invalid stream handle: name length 2147483649 is outside 1..4096"},
      {with(12, 0xff), NXRT_U8,
       "invalid stream handle: name is not valid UTF-8 without NUL bytes"},
      {with(12, 0), NXRT_U8,
       "invalid stream handle: name is not valid UTF-8 without NUL bytes"},
  };
  for (auto &c : cases) {
    int64_t dims[] = {static_cast<int64_t>(c.bytes.size())};
    nxrt_tensor_t h{c.dtype, 1, dims, c.bytes.data()};
    Tensor<float> x(NXRT_F32, {1});
    Status s = runOutfeed({x.view}, nullptr, &h);
    EXPECT_EQ(message(s),
              std::string("outfeed at feed.mlir:1:1 failed: ") + c.message);
  }
}

TEST_F(NxrtStreams, RandomHandleBytesNeverCrash) {
  std::mt19937 rng(7);
  std::vector<uint8_t> good = handleBytesOf("stream-ü");
  int accepted = 0;
  for (int iter = 0; iter < 5000; ++iter) {
    std::vector<uint8_t> bytes = good;
    for (int k = 0, n = 1 + rng() % 3; k < n; ++k)
      bytes[rng() % bytes.size()] = rng();
    if (rng() % 4 == 0)
      bytes.resize(rng() % (bytes.size() + 8));
    std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size() + 1]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    int64_t dims[] = {static_cast<int64_t>(bytes.size())};
    nxrt_tensor_t h{NXRT_U8, 1, dims, exact.get()};
    Tensor<float> x(NXRT_F32, {1});
    Status s = runOutfeed({x.view}, nullptr, &h);
    ASSERT_NE(s, nullptr) << "no such stream can be opened";
    accepted += message(s).find("no stream named") != std::string::npos;
  }
  EXPECT_GT(accepted, 0) << "some mutations keep a valid (unknown) name";
}

TEST_F(NxrtStreams, PushAndPopArgumentErrors) {
  int64_t dims[] = {-1};
  nxrt_tensor_t bad{NXRT_F32, 1, dims, nullptr};
  Status s(nxrt_stream_push_infeed(stream, &bad, 1));
  EXPECT_EQ(message(s), "tensor 0 has negative dimension -1 at 0");
  Status s2(nxrt_stream_push_infeed(nullptr, &bad, 1));
  EXPECT_EQ(nxrt_status_code(s2.get()), NXRT_INVALID_ARGUMENT);
  Status s3(nxrt_stream_pop_outfeed(stream, 1, nullptr));
  EXPECT_EQ(nxrt_status_code(s3.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(nxrt_stream_infeed_size(nullptr), 0u);
  EXPECT_EQ(nxrt_value_size(nullptr), 0u);
  nxrt_value_free(nullptr);
}

} // namespace
