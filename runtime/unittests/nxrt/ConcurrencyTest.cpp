//===- ConcurrencyTest.cpp - Concurrent runs, stress, re-entrancy ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "Dispatcher.h"
#include "TestUtil.h"

using namespace nxrt_test;

namespace {

#if defined(__SANITIZE_THREAD__)
constexpr int kCallsPerThread = 1500; // TSan on 2 cores: ~12k calls total
#elif defined(NXRT_TEST_SANITIZED)
constexpr int kCallsPerThread = 6250; // ASan: 50k
#else
constexpr int kCallsPerThread = 12500; // 8 threads -> 100k callbacks
#endif
constexpr int kThreads = 8;

class NxrtConcurrency : public RuntimeTest {};

// Every call carries a unique id (thread * kCallsPerThread + i); the ledger
// counts deliveries per id so loss and duplication are both visible.
struct Ledger {
  explicit Ledger(size_t n) : seen(new std::atomic<uint8_t>[n]), size(n) {
    for (size_t i = 0; i < n; ++i)
      seen[i].store(0);
  }
  nxrt_status_t *record(int64_t id) {
    if (id < 0 || static_cast<size_t>(id) >= size)
      return nxrt_status_create(NXRT_OUT_OF_RANGE, "bad id");
    if (seen[id].fetch_add(1) != 0)
      return nxrt_status_create(NXRT_INTERNAL, "duplicate delivery");
    return nullptr;
  }
  std::unique_ptr<std::atomic<uint8_t>[]> seen;
  size_t size;
};

// Inline handler: records the id and returns id * 2.
nxrt_status_t *inlineDouble(void *user, const nxrt_call_t *call) {
  int64_t id = *static_cast<const int64_t *>(call->args[0].data);
  *static_cast<int64_t *>(call->results[0].data) = id * 2;
  return static_cast<Ledger *>(user)->record(id);
}

TEST_F(NxrtConcurrency, StressInlineAndBridgeNothingLostOrDuplicated) {
  const size_t total = size_t(kThreads) * kCallsPerThread;
  Ledger ledger(total);
  registerInline("inline", inlineDouble, &ledger);
  registerBridge("bridge", /*timeoutMs=*/60000);
  nxrt_site_t *inlineSite = addSite(NXRT_SITE_ELIXIR_CALL, "inline");
  nxrt_site_t *bridgeSite = addSite(NXRT_SITE_ELIXIR_CALL, "bridge");

  // Two dispatcher threads serve bridge calls: id -> id * 2.
  Dispatcher dispatcher(
      rt,
      [&](nxrt_request_t *req) {
        int64_t id =
            *static_cast<const int64_t *>(nxrt_request_arg(req, 0)->data);
        nxrt_status_t *bad = ledger.record(id);
        int64_t out = id * 2;
        nxrt_tensor_t result = *nxrt_request_result_template(req, 0);
        result.data = &out;
        nxrt_status_t *s =
            nxrt_bridge_reply(rt, nxrt_request_tag(req), bad, &result, 1);
        EXPECT_EQ(s, nullptr) << nxrt_status_message(s);
        nxrt_status_free(s);
      },
      /*threads=*/2);

  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      nxrt_run_t *run = nullptr;
      for (int i = 0; i < kCallsPerThread; ++i) {
        if (i % 100 == 0) { // a fresh run every 100 calls
          if (run)
            nxrt_status_free(nxrt_run_end(run));
          run = nxrt_run_begin(rt, nullptr);
        }
        int64_t id = int64_t(t) * kCallsPerThread + i, out = -1;
        int64_t dims[] = {};
        nxrt_tensor_t x{NXRT_I64, 0, dims, &id};
        nxrt_tensor_t y{NXRT_I64, 0, dims, &out};
        // Threads differ in their mix, so both modes overlap in time.
        bool bridge = (i + t) % 2 == 0;
        nxrt_status_t *s =
            nxrt_invoke(run, bridge ? bridgeSite : inlineSite, &x, 1, &y, 1);
        if (s) {
          failed++;
          ADD_FAILURE() << nxrt_status_message(s);
          nxrt_status_free(s);
          return;
        }
        if (out != id * 2)
          wrong++;
      }
      nxrt_status_free(nxrt_run_end(run));
    });
  for (auto &th : threads)
    th.join();

  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  size_t delivered = 0;
  for (size_t i = 0; i < total; ++i) {
    delivered += ledger.seen[i].load() == 1;
    ASSERT_LE(ledger.seen[i].load(), 1) << "duplicate delivery of " << i;
  }
  EXPECT_EQ(delivered, total);
}

TEST_F(NxrtConcurrency, BridgeCallsAreInFlightTogether) {
  constexpr int kCallers = 4;
  registerBridge("gather", 60000);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "gather");
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      int64_t in = t, out = -1;
      nxrt_tensor_t x{NXRT_I64, 0, nullptr, &in};
      nxrt_tensor_t y{NXRT_I64, 0, nullptr, &out};
      nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
      nxrt_status_free(nxrt_invoke(run, site, &x, 1, &y, 1));
      nxrt_status_t *s = nxrt_run_end(run);
      if (!s && out == in + 100)
        ok++;
      nxrt_status_free(s);
    });
  // Collect every request before answering any: all callers are blocked at
  // once. Answer in reverse arrival order.
  std::vector<nxrt_request_t *> held;
  while (held.size() < kCallers) {
    nxrt_request_t *req = nullptr;
    NXRT_ASSERT_OK(nxrt_bridge_pull(rt, 10000, &req));
    held.push_back(req);
  }
  for (auto it = held.rbegin(); it != held.rend(); ++it) {
    int64_t out =
        *static_cast<const int64_t *>(nxrt_request_arg(*it, 0)->data) + 100;
    nxrt_tensor_t r{NXRT_I64, 0, nullptr, &out};
    NXRT_EXPECT_OK(
        nxrt_bridge_reply(rt, nxrt_request_tag(*it), nullptr, &r, 1));
    nxrt_request_release(*it);
  }
  for (auto &c : callers)
    c.join();
  EXPECT_EQ(ok.load(), kCallers);
}

nxrt_status_t *failOdd(void *, const nxrt_call_t *call) {
  int64_t v = *static_cast<const int64_t *>(call->args[0].data);
  if (v % 2)
    return nxrt_status_create(NXRT_INVALID_ARGUMENT, "odd");
  return nullptr;
}

TEST_F(NxrtConcurrency, FailingRunsDoNotAffectConcurrentRuns) {
  registerInline("f", failOdd);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "r.mlir:1:1");
  std::atomic<int> good{0}, bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        int64_t v = t % 2;
        nxrt_tensor_t x{NXRT_I64, 0, nullptr, &v};
        nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
        for (int k = 0; k < 3; ++k)
          nxrt_status_free(nxrt_invoke(run, site, &x, 1, nullptr, 0));
        nxrt_status_t *s = nxrt_run_end(run);
        if (v % 2 ? s && std::string(nxrt_status_message(s)) ==
                             "callback @f at r.mlir:1:1 failed: odd"
                  : s == nullptr)
          (v % 2 ? bad : good)++;
        nxrt_status_free(s);
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(good.load(), kThreads / 2 * 200);
  EXPECT_EQ(bad.load(), kThreads / 2 * 200);
}

// Re-entrancy across modes: an inline callback runs a nested program whose
// bridge callback is served by a dispatcher that itself runs a nested
// program with an inline callback.
struct Reentrant {
  nxrt_runtime_t *rt;
  nxrt_site_t *bridgeSite = nullptr;
  nxrt_site_t *leafSite = nullptr;
  std::atomic<int> leaves{0};
};

nxrt_status_t *leaf(void *user, const nxrt_call_t *call) {
  static_cast<Reentrant *>(user)->leaves++;
  *static_cast<int64_t *>(call->results[0].data) =
      *static_cast<const int64_t *>(call->args[0].data) + 1;
  return nullptr;
}

nxrt_status_t *outer(void *user, const nxrt_call_t *call) {
  auto *r = static_cast<Reentrant *>(user);
  nxrt_run_t *run = nxrt_run_begin(r->rt, nullptr);
  nxrt_tensor_t x = call->args[0];
  nxrt_status_free(nxrt_invoke(run, r->bridgeSite, &x, 1, call->results, 1));
  return nxrt_run_end(run);
}

TEST_F(NxrtConcurrency, ReentrantNestedRunsAcrossModes) {
  Reentrant r{rt};
  registerInline("outer", outer, &r);
  registerInline("leaf", leaf, &r);
  registerBridge("middle", 60000);
  nxrt_site_t *outer = addSite(NXRT_SITE_ELIXIR_CALL, "outer");
  r.bridgeSite = addSite(NXRT_SITE_ELIXIR_CALL, "middle");
  r.leafSite = addSite(NXRT_SITE_ELIXIR_CALL, "leaf");

  Dispatcher dispatcher(
      rt,
      [&](nxrt_request_t *req) {
        // The dispatcher runs compiled code of its own before replying.
        int64_t in =
            *static_cast<const int64_t *>(nxrt_request_arg(req, 0)->data);
        int64_t out = -1;
        nxrt_tensor_t x{NXRT_I64, 0, nullptr, &in};
        nxrt_tensor_t y{NXRT_I64, 0, nullptr, &out};
        nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
        nxrt_status_free(nxrt_invoke(run, r.leafSite, &x, 1, &y, 1));
        nxrt_status_t *s = nxrt_run_end(run);
        out *= 10;
        nxrt_tensor_t result{NXRT_I64, 0, nullptr, &out};
        nxrt_status_free(
            nxrt_bridge_reply(rt, nxrt_request_tag(req), s, &result, 1));
      },
      /*threads=*/2);

  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        int64_t in = t * 1000 + i, out = 0;
        nxrt_tensor_t x{NXRT_I64, 0, nullptr, &in};
        nxrt_tensor_t y{NXRT_I64, 0, nullptr, &out};
        nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
        nxrt_status_free(nxrt_invoke(run, outer, &x, 1, &y, 1));
        nxrt_status_t *s = nxrt_run_end(run);
        EXPECT_EQ(s, nullptr) << nxrt_status_message(s);
        nxrt_status_free(s);
        ok += out == (in + 1) * 10;
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(ok.load(), 200);
  EXPECT_EQ(r.leaves.load(), 200);
}

} // namespace
