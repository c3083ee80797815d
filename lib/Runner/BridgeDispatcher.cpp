//===- BridgeDispatcher.cpp - serve host callbacks in bridge mode ---------===//
//
// The compute threads of the serving runtime queue bridge requests; the
// dispatcher threads pull them, run the handler that the "handler" runtime
// binds under the same name (through a one-site program of that runtime, so
// the handler sees exactly what an inline call would: arguments in place,
// attributes, name and location) and reply by tag.
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/Runner.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir::nx::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Re-encoding decoded attributes (nxrt.h "Typed attributes")
//===----------------------------------------------------------------------===//

static void putU32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}
static void putU64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}

static void encodeDict(std::string &out, const nxrt_attrs_t *attrs);

static void encodeValue(std::string &out, const nxrt_attr_t *attr) {
  switch (nxrt_attr_kind(attr)) {
  case NXRT_ATTR_I64: {
    int64_t v = 0;
    nxrt_status_free(nxrt_attr_i64(attr, &v));
    out += '\x01';
    putU64(out, static_cast<uint64_t>(v));
    return;
  }
  case NXRT_ATTR_F64: {
    double v = 0;
    nxrt_status_free(nxrt_attr_f64(attr, &v));
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    out += '\x02';
    putU64(out, bits);
    return;
  }
  case NXRT_ATTR_BOOL: {
    int v = 0;
    nxrt_status_free(nxrt_attr_bool(attr, &v));
    out += '\x03';
    out += v ? '\x01' : '\x00';
    return;
  }
  case NXRT_ATTR_STRING: {
    const char *s = "";
    size_t len = 0;
    nxrt_status_free(nxrt_attr_string(attr, &s, &len));
    out += '\x04';
    putU32(out, static_cast<uint32_t>(len));
    out.append(s, len);
    return;
  }
  case NXRT_ATTR_ARRAY: {
    size_t n = 0;
    nxrt_status_free(nxrt_attr_array_size(attr, &n));
    out += '\x05';
    putU32(out, static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; ++i)
      encodeValue(out, nxrt_attr_array_at(attr, i));
    return;
  }
  case NXRT_ATTR_DICT: {
    const nxrt_attrs_t *dict = nullptr;
    nxrt_status_free(nxrt_attr_dict(attr, &dict));
    encodeDict(out, dict);
    return;
  }
  case NXRT_ATTR_INT: {
    uint32_t width = 64;
    nxrt_signedness_t signedness = NXRT_SIGNLESS;
    nxrt_status_free(nxrt_attr_int_type(attr, &width, &signedness));
    uint64_t bits = 0;
    if (signedness == NXRT_UNSIGNED) {
      nxrt_status_free(nxrt_attr_u64(attr, &bits));
    } else {
      int64_t v = 0;
      nxrt_status_free(nxrt_attr_i64(attr, &v));
      bits = static_cast<uint64_t>(v);
    }
    out += '\x07';
    out += static_cast<char>(signedness);
    out += static_cast<char>(width);
    putU64(out, bits);
    return;
  }
  case NXRT_ATTR_FLOAT: {
    nxrt_dtype_t dtype = NXRT_F64;
    nxrt_status_free(nxrt_attr_float_dtype(attr, &dtype));
    double v = 0;
    nxrt_status_free(nxrt_attr_f64(attr, &v));
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    out += '\x08';
    out += static_cast<char>(dtype);
    putU64(out, bits);
    return;
  }
  default:
    return;
  }
}

static void encodeDict(std::string &out, const nxrt_attrs_t *attrs) {
  size_t n = attrs ? nxrt_attrs_size(attrs) : 0;
  out += '\x06';
  putU32(out, static_cast<uint32_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const char *name = nxrt_attrs_name_at(attrs, i);
    size_t len = std::strlen(name);
    putU32(out, static_cast<uint32_t>(len));
    out.append(name, len);
    encodeValue(out, nxrt_attrs_value_at(attrs, i));
  }
}

static std::string encodeAttrs(const nxrt_attrs_t *attrs) {
  std::string out;
  if (attrs && nxrt_attrs_size(attrs) > 0)
    encodeDict(out, attrs);
  return out;
}

//===----------------------------------------------------------------------===//
// Dispatcher
//===----------------------------------------------------------------------===//

struct BridgeDispatcher::Impl {
  nxrt_runtime_t *serving = nullptr;
  nxrt_runtime_t *handlers = nullptr;
  std::vector<std::thread> threads;
  std::atomic<uint64_t> served{0};

  std::mutex mutex; // guards the fields below
  std::set<std::string> forwarded;
  /// One single-site program of the handler runtime per distinct
  /// (kind, name, location, attributes) of the serving side.
  std::map<std::string, nxrt_program_t *> programs;

  ~Impl() {
    nxrt_bridge_close(serving);
    for (std::thread &t : threads)
      t.join();
    for (auto &entry : programs)
      nxrt_program_destroy(entry.second);
    nxrt_runtime_destroy(handlers);
  }

  nxrt_site_t *siteFor(nxrt_request_t *request, nxrt_status_t **error) {
    nxrt_site_kind_t kind = nxrt_request_kind(request);
    const char *name = nxrt_request_name(request);
    const char *location = nxrt_request_location(request);
    std::string attrs = encodeAttrs(nxrt_request_attrs(request));
    std::string key = std::to_string(kind) + '\0' + name + '\0' + location +
                      '\0' + attrs;
    std::lock_guard<std::mutex> lock(mutex);
    nxrt_program_t *&program = programs[key];
    if (!program) {
      program = nxrt_program_create(handlers, "nx-runner bridge");
      nxrt_site_t *site = nxrt_program_add_site(
          program, kind, name, location,
          reinterpret_cast<const uint8_t *>(attrs.data()), attrs.size(), error);
      if (!site) {
        nxrt_program_destroy(program);
        programs.erase(key);
        return nullptr;
      }
      return site;
    }
    return nxrt_program_site(program, 0);
  }

  void serve(nxrt_request_t *request) {
    uint64_t tag = nxrt_request_tag(request);
    nxrt_status_t *error = nullptr;
    nxrt_site_t *site = siteFor(request, &error);
    if (!site) {
      nxrt_status_free(nxrt_bridge_reply(serving, tag, error, nullptr, 0));
      return;
    }
    // Copy the arguments: their buffers belong to the compute thread, which
    // stops waiting (and may free them) once the call's deadline passes,
    // while the handler may still be running.
    auto shapedLike = [](const nxrt_tensor_t *t) {
      return HostTensor(t->dtype,
                        llvm::ArrayRef<int64_t>(t->dims, t->dims + t->rank));
    };
    size_t nargs = nxrt_request_num_args(request);
    std::vector<HostTensor> argStorage;
    std::vector<nxrt_tensor_t> args;
    for (size_t i = 0; i < nargs; ++i) {
      argStorage.push_back(shapedLike(nxrt_request_arg(request, i)));
      HostTensor &copy = argStorage.back();
      if (nxrt_status_t *st = nxrt_request_copy_arg(request, i, copy.data(),
                                                    copy.byteSize())) {
        // No longer pending: nobody waits for the answer any more.
        nxrt_status_free(st);
        return;
      }
    }
    for (HostTensor &t : argStorage)
      args.push_back(t.view());
    size_t nresults = nxrt_request_num_results(request);
    std::vector<HostTensor> storage;
    std::vector<nxrt_tensor_t> results;
    for (size_t i = 0; i < nresults; ++i)
      storage.push_back(shapedLike(nxrt_request_result_template(request, i)));
    for (HostTensor &t : storage)
      results.push_back(t.view());

    nxrt_run_t *run = nxrt_run_begin(handlers, nullptr);
    nxrt_status_t *status = nxrt_invoke(run, site, args.data(), nargs,
                                        results.data(), results.size());
    nxrt_status_free(nxrt_run_end(run));
    // Counted before replying, so that a run that saw its reply also sees
    // the count.
    served.fetch_add(1, std::memory_order_relaxed);
    if (status) {
      // The handler runtime prefixed the handler's message with the site
      // ("callback @f at loc failed: "); the serving runtime adds the same
      // prefix again, so hand back only the handler's own words.
      std::string prefix = std::string("callback @") + nxrt_request_name(request) +
                           " at " + nxrt_request_location(request) + " failed: ";
      std::string message = nxrt_status_message(status);
      if (llvm::StringRef(message).starts_with(prefix))
        message = message.substr(prefix.size());
      nxrt_status_code_t code = nxrt_status_code(status);
      nxrt_status_free(status);
      status = nxrt_status_create(code, message.c_str());
      nxrt_status_free(nxrt_bridge_reply(serving, tag, status, nullptr, 0));
    } else {
      nxrt_status_free(nxrt_bridge_reply(serving, tag, nullptr, results.data(),
                                         results.size()));
    }
  }

  void loop() {
    for (;;) {
      nxrt_request_t *request = nullptr;
      nxrt_status_t *status = nxrt_bridge_pull(serving, 0, &request);
      if (status) {
        nxrt_status_code_t code = nxrt_status_code(status);
        nxrt_status_free(status);
        if (code == NXRT_CANCELLED)
          return;
        continue;
      }
      serve(request);
      nxrt_request_release(request);
    }
  }
};

BridgeDispatcher::BridgeDispatcher(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
BridgeDispatcher::~BridgeDispatcher() = default;

llvm::Expected<std::unique_ptr<BridgeDispatcher>>
BridgeDispatcher::create(nxrt_runtime_t *serving, unsigned numThreads) {
  if (!serving)
    return makeError("no runtime to serve");
  auto impl = std::make_unique<Impl>();
  impl->serving = serving;
  impl->handlers = nxrt_runtime_create();
  for (unsigned i = 0; i < std::max(numThreads, 1u); ++i)
    impl->threads.emplace_back([p = impl.get()] { p->loop(); });
  return std::unique_ptr<BridgeDispatcher>(
      new BridgeDispatcher(std::move(impl)));
}

nxrt_runtime_t *BridgeDispatcher::handlers() const { return impl_->handlers; }

uint64_t BridgeDispatcher::numServed() const {
  return impl_->served.load(std::memory_order_relaxed);
}

static nxrt_status_t *notDefined(void *, const nxrt_call_t *call) {
  return nxrt_status_create(NXRT_NOT_FOUND,
                            "no handler for this callback in bridge mode");
}

llvm::Error BridgeDispatcher::forward(llvm::ArrayRef<std::string> names,
                                      int64_t timeoutMs) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for (const std::string &name : names) {
    if (!impl_->forwarded.insert(name).second)
      continue;
    // Does the handler runtime bind `name`? Registering a placeholder tells:
    // ALREADY_EXISTS means it does. Otherwise the placeholder (never called)
    // stays and the name remains unbound on the serving runtime.
    nxrt_callback_desc_t probe{};
    probe.mode = NXRT_DISPATCH_INLINE;
    probe.fn = notDefined;
    nxrt_status_t *st =
        nxrt_register_callback(impl_->handlers, name.c_str(), &probe);
    if (!st)
      continue;
    nxrt_status_code_t code = nxrt_status_code(st);
    nxrt_status_free(st);
    if (code != NXRT_ALREADY_EXISTS)
      return makeError("cannot forward callback @" + name);
    nxrt_callback_desc_t desc{};
    desc.mode = NXRT_DISPATCH_BRIDGE;
    desc.fn = nullptr;
    desc.timeout_ms = timeoutMs;
    if (auto err = statusToError(
            nxrt_register_callback(impl_->serving, name.c_str(), &desc)))
      return makeError("cannot bind callback @" + name +
                       " in bridge mode: " + llvm::toString(std::move(err)));
  }
  return llvm::Error::success();
}
