//===- Program.cpp - Programs and call sites ------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "Runtime.h"
#include "Status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

absl::Status nxrt_site::failed(const absl::Status &status) const {
  return absl::Status(status.code(),
                      absl::StrCat(what, " failed: ", status.message()));
}

namespace {

absl::Status configure(nxrt_site &site, const uint8_t *attrs, size_t attrsLen) {
  if (site.kind == NXRT_SITE_OPTIONAL_IO_CALLBACK) {
    site.kind = NXRT_SITE_IO_CALLBACK;
    site.optional = true;
  }
  switch (site.kind) {
  case NXRT_SITE_ELIXIR_CALL:
  case NXRT_SITE_IO_CALLBACK:
    site.what = absl::StrFormat("callback @%s at %s", site.name, site.location);
    break;
  case NXRT_SITE_CUSTOM_CALL:
    site.what =
        absl::StrFormat("custom call @%s at %s", site.name, site.location);
    break;
  case NXRT_SITE_OUTFEED:
    site.what = absl::StrFormat("outfeed at %s", site.location);
    break;
  case NXRT_SITE_INFEED:
    site.what = absl::StrFormat("infeed at %s", site.location);
    break;
  default:
    return absl::InvalidArgumentError(absl::StrFormat(
        "invalid call site kind %d at %s", site.kind, site.location));
  }
  if ((site.kind <= NXRT_SITE_CUSTOM_CALL) && site.name.empty())
    return absl::InvalidArgumentError(
        absl::StrFormat("call site at %s has no callee name", site.location));

  auto parsed = nxrt::parseAttrs(attrs, attrsLen);
  if (!parsed.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(site.what, ": ", parsed.status().message()));
  site.attrs = *std::move(parsed);

  if (site.kind == NXRT_SITE_INFEED) {
    if (const nxrt_attr_t *t =
            nxrt_attrs_find(site.attrs.get(), "timeout_ms")) {
      if (t->kind != NXRT_ATTR_I64)
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: attribute 'timeout_ms' has type %s, expected i64", site.what,
            nxrt::attrKindName(t->kind)));
      if (t->i > 0)
        site.infeedTimeout = absl::Milliseconds(t->i);
    }
  }
  return absl::OkStatus();
}

} // namespace

extern "C" {

nxrt_program_t *nxrt_program_create(nxrt_runtime_t *runtime, const char *name) {
  if (!runtime)
    return nullptr;
  auto *program = new nxrt_program;
  program->runtime = runtime;
  program->name = name ? name : "";
  return program;
}

void nxrt_program_destroy(nxrt_program_t *program) { delete program; }

nxrt_site_t *nxrt_program_add_site(nxrt_program_t *program,
                                   nxrt_site_kind_t kind, const char *name,
                                   const char *location, const uint8_t *attrs,
                                   size_t attrsLen, nxrt_status_t **error) {
  auto fail = [&](absl::Status s) -> nxrt_site_t * {
    if (error)
      *error = nxrt::toC(s);
    return nullptr;
  };
  if (!program)
    return fail(absl::InvalidArgumentError("program is null"));
  auto site = std::make_unique<nxrt_site>();
  site->runtime = program->runtime;
  site->kind = kind;
  site->name = name ? name : "";
  site->location = location && *location ? location : "<unknown>";
  if (absl::Status s = configure(*site, attrs, attrsLen); !s.ok())
    return fail(s);
  // Configure normalized the kind (an optional io_callback is an
  // io_callback site with `optional` set).
  if (site->kind == NXRT_SITE_ELIXIR_CALL ||
      site->kind == NXRT_SITE_IO_CALLBACK)
    site->handler = program->runtime->registry.findCallback(site->name);
  else if (site->kind == NXRT_SITE_CUSTOM_CALL)
    site->handler = program->runtime->registry.findTarget(site->name);
  site->id = static_cast<uint32_t>(program->sites.size());
  program->sites.push_back(std::move(site));
  return program->sites.back().get();
}

nxrt_status_t *nxrt_program_add_sites(nxrt_program_t *program,
                                      nxrt_site_record_t *first) {
  if (!program)
    return nxrt::toC(absl::InvalidArgumentError("program is null"));
  for (nxrt_site_record_t *record = first; record; record = record->next) {
    const char *bytes = reinterpret_cast<const char *>(record + 1);
    const char *location = record->location_offset >= 0
                               ? bytes + record->location_offset
                               : "<unknown>";
    // nxrt_program_add_site checks the kind; here only that it fits.
    if (record->kind < 0 || record->kind > INT32_MAX ||
        record->name_offset < 0 || record->location_offset < 0 ||
        record->attrs_offset < 0 || record->attrs_len < 0)
      return nxrt::toC(absl::InvalidArgumentError(absl::StrFormat(
          "malformed site record at %s: kind %d, offsets %d %d %d, %d "
          "attribute bytes",
          location, record->kind, record->name_offset, record->location_offset,
          record->attrs_offset, record->attrs_len)));
    nxrt_status_t *error = nullptr;
    record->site = nxrt_program_add_site(
        program, static_cast<nxrt_site_kind_t>(record->kind),
        bytes + record->name_offset, location,
        reinterpret_cast<const uint8_t *>(bytes + record->attrs_offset),
        static_cast<size_t>(record->attrs_len), &error);
    if (!record->site)
      return error;
  }
  return nullptr;
}

nxrt_site_t *nxrt_program_site(const nxrt_program_t *program, uint32_t id) {
  if (!program || id >= program->sites.size())
    return nullptr;
  return program->sites[id].get();
}

size_t nxrt_program_num_sites(const nxrt_program_t *program) {
  return program ? program->sites.size() : 0;
}

uint32_t nxrt_site_id(const nxrt_site_t *site) { return site ? site->id : 0; }

nxrt_site_kind_t nxrt_site_kind(const nxrt_site_t *site) {
  if (!site)
    return NXRT_SITE_ELIXIR_CALL;
  return site->optional ? NXRT_SITE_OPTIONAL_IO_CALLBACK : site->kind;
}

const char *nxrt_site_name(const nxrt_site_t *site) {
  return site ? site->name.c_str() : "";
}

} // extern "C"
