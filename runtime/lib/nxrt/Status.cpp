//===- Status.cpp - Status objects of the C ABI ---------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Status.h"

namespace nxrt {

nxrt_status_t *toC(const absl::Status &status) {
  if (status.ok())
    return nullptr;
  return new nxrt_status{static_cast<nxrt_status_code_t>(status.code()),
                         std::string(status.message())};
}

absl::Status fromC(nxrt_status_t *status) {
  if (!status)
    return absl::OkStatus();
  absl::Status result(static_cast<absl::StatusCode>(status->code),
                      status->message);
  delete status;
  return result;
}

} // namespace nxrt

extern "C" {

nxrt_status_t *nxrt_status_create(nxrt_status_code_t code,
                                  const char *message) {
  if (code == NXRT_OK)
    return nullptr;
  if (code < NXRT_OK || code > NXRT_UNAUTHENTICATED)
    code = NXRT_UNKNOWN;
  return new nxrt_status{code, message ? message : ""};
}

nxrt_status_code_t nxrt_status_code(const nxrt_status_t *status) {
  return status ? status->code : NXRT_OK;
}

const char *nxrt_status_message(const nxrt_status_t *status) {
  return status ? status->message.c_str() : "";
}

void nxrt_status_free(nxrt_status_t *status) { delete status; }

} // extern "C"
