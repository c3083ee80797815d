//===- Feeds.h - Infeed and outfeed call sites ------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_FEEDS_H
#define NXRT_LIB_FEEDS_H

#include "Program.h"
#include "Streams.h"
#include "absl/status/status.h"
#include "absl/time/time.h"

namespace nxrt {

// Both return errors carrying the full message (naming the site).
absl::Status runOutfeed(StreamTable &streams, const nxrt_site &site,
                        const nxrt_tensor_t *args, size_t nargs,
                        nxrt_tensor_t *results, size_t nresults);
absl::Status runInfeed(StreamTable &streams, const nxrt_site &site,
                       absl::Time runDeadline, absl::Duration runTimeout,
                       const nxrt_tensor_t *args, size_t nargs,
                       nxrt_tensor_t *results, size_t nresults);

} // namespace nxrt

#endif // NXRT_LIB_FEEDS_H
