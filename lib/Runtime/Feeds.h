//===- Feeds.h - Infeed and outfeed call sites ------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_FEEDS_H
#define NXRT_LIB_RUNTIME_FEEDS_H

#include "Program.h"
#include "Streams.h"
#include "absl/status/status.h"
#include "absl/time/time.h"

namespace nxrt {

// Both return errors carrying the full message (naming the site).
absl::Status RunOutfeed(StreamTable &streams, const nxrt_site &site,
                        const nxrt_tensor_t *args, size_t nargs,
                        nxrt_tensor_t *results, size_t nresults);
absl::Status RunInfeed(StreamTable &streams, const nxrt_site &site,
                       absl::Time run_deadline, absl::Duration run_timeout,
                       const nxrt_tensor_t *args, size_t nargs,
                       nxrt_tensor_t *results, size_t nresults);

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_FEEDS_H
