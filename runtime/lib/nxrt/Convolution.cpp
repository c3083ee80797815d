//===- Convolution.cpp - convolutions of compiled code, on oneDNN ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// out[n, g*F + o, y, x] (+)= bias[g*F + o] + sum over c, ky, kx of
//   in[n, g*C + c, y*sh + ky*dh - top, x*sw + kx*dw - left]
//   * filter[g, o, c, ky, kx]
// then an optional ReLU, with element strides per dimension and zeros
// outside the input (nxrt.h). oneDNN runs it: its
// convolutions are the kernels PyTorch's CPU path uses, and no convolution
// built from an im2col copy and a BLAS product came within 1.25x of them.
//
// Creating a oneDNN primitive picks and JIT-compiles a kernel (tens of
// microseconds to milliseconds), so primitives are kept per shape, layout
// and thread count. oneDNN's kernels want the filter in a blocked layout of
// their own. Compiled code passes filters as values that may change between
// calls, so each thread keeps its last reorder per primitive with a copy of
// the filter it came from, and reorders again when the filter's bytes
// differ (ReorderedFilters). An accumulation
// into `out` is oneDNN's sum post-op, a bias and zero padding are its own:
// compiled code folds a zero tensor.pad and the bias after the
// convolution into the call, so that they cost no pass over memory. The
// ReLU it folds in is a vector pass over the output right after the kernel
// (makePlan says why). For layouts its direct kernels do not take (NCHW
// with many channels), oneDNN falls back to an im2col copy and a GEMM; the
// plan then moves input and output through the kernels' own layout instead
// (withKernelLayouts). Anything oneDNN refuses runs a plain loop instead:
// slower, never wrong.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include "Dnnl.h"
#include "OpenMPThreads.h"
#include "Relu.h"

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

/// The call's scalar parameters, in nxrt_conv2d_f32's order.
struct ConvSizes {
  int64_t batch, groups, inChannels, outChannels, height, width, kernelH,
      kernelW, outH, outW, strideH, strideW, dilationH, dilationW, padTop,
      padLeft, flags;

  auto tie() const {
    return std::tie(batch, groups, inChannels, outChannels, height, width,
                    kernelH, kernelW, outH, outW, strideH, strideW, dilationH,
                    dilationW, padTop, padLeft, flags);
  }
  bool operator==(const ConvSizes &other) const { return tie() == other.tie(); }
  template <typename H> friend H AbslHashValue(H state, const ConvSizes &s) {
    return H::combine(std::move(state), s.tie());
  }
};

/// Everything that selects a primitive: the call's sizes, strides, whether
/// it adds a bias, and the number of threads oneDNN splits the work for.
struct ConvKey {
  ConvSizes sizes;
  std::array<int64_t, 4> inputStrides;
  std::array<int64_t, 5> filterStrides;
  std::array<int64_t, 4> outputStrides;
  bool bias;
  int threads;

  auto tie() const {
    return std::tie(sizes, inputStrides, filterStrides, outputStrides, bias,
                    threads);
  }
  bool operator==(const ConvKey &other) const { return tie() == other.tie(); }
  template <typename H> friend H AbslHashValue(H state, const ConvKey &key) {
    return H::combine(std::move(state), key.tie());
  }
};

/// Fewer elements than this are not worth a parallel region (about 10 us
/// of work).
constexpr int64_t kMinElementsPerTeam = 1 << 15;

/// The calling thread's buffers: one scratchpad that serves every step it
/// runs, and an input and an output in a kernel's layout.
struct ThreadBuffers {
  nxrt::ScratchBuffer scratchpad, input, output;
};

ThreadBuffers &threadBuffers() {
  thread_local ThreadBuffers buffers;
  return buffers;
}

/// A primitive and the scratchpad it needs, which the caller passes in
/// (nxrt::withUserScratchpad).
struct Step {
  dnnl::primitive primitive;
  dnnl::memory::desc scratchpad;

  /// Runs the primitive on `stream` with a scratchpad from the calling
  /// thread's buffer. oneDNN's CPU streams run a primitive before execute
  /// returns, so one buffer serves a thread's steps one after another.
  void run(dnnl::stream &stream,
           std::unordered_map<int, dnnl::memory> arguments) const {
    if (size_t bytes = scratchpad.get_size())
      arguments.emplace(DNNL_ARG_SCRATCHPAD,
                        dnnl::memory(scratchpad, stream.get_engine(),
                                     threadBuffers().scratchpad.get(bytes)));
    primitive.execute(stream, arguments);
  }
};

/// A convolution primitive and the filter reorder that feeds it; with
/// `kernelLayouts`, the reorders of input and output too.
struct ConvPlan {
  /// Whether reluInPlace follows the kernel.
  bool relu = false;
  Step convolution;
  dnnl::memory::desc input, output, bias, userFilter, kernelFilter;
  Step filterReorder;
  bool reorderFilter = false;
  /// Input and output go through the kernel's layouts: `kernelInput` and
  /// `kernelOutput`, reordered from and to the caller's buffers.
  bool kernelLayouts = false;
  dnnl::memory::desc kernelInput, kernelOutput;
  Step inputReorder, outputReorder, outputBackReorder;
};

/// The strides of a dense tensor of `dims` whose dimensions lie in memory
/// in `order`, outermost first.
dnnl::memory::dims denseStrides(const dnnl::memory::dims &dims,
                                const std::vector<int> &order) {
  dnnl::memory::dims strides(dims.size());
  int64_t stride = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    strides[*it] = stride;
    stride *= std::max<int64_t>(dims[*it], 1);
  }
  return strides;
}

/// A size-1 dimension's stride says nothing about the layout, but oneDNN
/// reads every stride when it matches a layout to its kernels: give it the
/// stride a dense layout would. When the other strides are those of a
/// dense NCHW or NHWC tensor (`dims` in NCHW order), that layout's: the
/// height of a 1-D convolution's image (NHWC, one row high) lies between
/// the batch and the width, and a stride past the batch's made its layout
/// no NHWC, so that oneDNN reordered the image and the output around its
/// kernel (0.2 ms of a 4x1024x64 sequence's 0.6). Otherwise past every
/// other dimension.
dnnl::memory::dims normalizeStrides(const dnnl::memory::dims &dims,
                                    dnnl::memory::dims strides) {
  if (dims.size() == 4) {
    static const std::vector<int> nchw = {0, 1, 2, 3}, nhwc = {0, 2, 3, 1};
    for (const std::vector<int> *order : {&nchw, &nhwc}) {
      dnnl::memory::dims dense = denseStrides(dims, *order);
      bool matches = true;
      for (size_t i = 0; i < dims.size(); ++i)
        matches &= dims[i] == 1 || strides[i] == dense[i];
      if (matches)
        return dense;
    }
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != 1)
      continue;
    int64_t dense = 1;
    for (size_t j = 0; j < dims.size(); ++j)
      if (j != i && strides[j] > 0 && dims[j] > 1)
        dense = std::max(dense, strides[j] * dims[j]);
    strides[i] = dense;
  }
  return strides;
}

/// The reorder from layout `from` to layout `to`.
Step makeReorder(const dnnl::memory::desc &from, const dnnl::memory::desc &to) {
  dnnl::engine &cpu = nxrt::dnnlCpuEngine();
  dnnl::reorder::primitive_desc primitive(
      cpu, from, cpu, to, nxrt::withUserScratchpad(dnnl::primitive_attr()));
  return {dnnl::reorder(primitive), primitive.scratchpad_desc()};
}

/// Whether oneDNN implements `primitive` as an im2col copy and a GEMM, or
/// with its reference loops: what it does when its direct kernels do not
/// take the layouts it was given.
bool isIndirect(const dnnl::convolution_forward::primitive_desc &primitive) {
  std::string impl = primitive.impl_info_str();
  return impl.find("gemm") != std::string::npos ||
         impl.find("ref") != std::string::npos;
}

/// `plan` made over again with input and output in the layouts oneDNN's
/// direct kernels choose, each reordered from or to the caller's layout
/// around the kernel, when oneDNN has such a kernel. A 3x3, 64-channel NCHW
/// convolution took 1.6x as long through the GEMM as NHWC's direct kernel,
/// and its first call 45 ms, for the GEMM's scratch buffer.
void withKernelLayouts(ConvPlan &plan,
                       const dnnl::convolution_forward::desc &userDesc,
                       const dnnl::primitive_attr &attributes) {
  using namespace dnnl;
  convolution_forward::desc desc = userDesc;
  memory::desc any(plan.input.dims(), memory::data_type::f32,
                   memory::format_tag::any);
  memory::desc anyOutput(plan.output.dims(), memory::data_type::f32,
                         memory::format_tag::any);
  desc.data.src_desc = any.data;
  desc.data.dst_desc = anyOutput.data;
  // Everything is made before `plan` changes: should oneDNN refuse a part,
  // the plan keeps the caller's layouts, slower but whole.
  try {
    convolution_forward::primitive_desc primitive(desc, attributes,
                                                  nxrt::dnnlCpuEngine());
    if (isIndirect(primitive))
      return;
    Step inputReorder = makeReorder(plan.input, primitive.src_desc());
    Step outputReorder = makeReorder(primitive.dst_desc(), plan.output);
    Step outputBackReorder = makeReorder(plan.output, primitive.dst_desc());
    plan.convolution = {convolution_forward(primitive),
                        primitive.scratchpad_desc()};
    plan.kernelLayouts = true;
    plan.kernelInput = primitive.src_desc();
    plan.kernelOutput = primitive.dst_desc();
    plan.kernelFilter = primitive.weights_desc();
    plan.inputReorder = std::move(inputReorder);
    plan.outputReorder = std::move(outputReorder);
    plan.outputBackReorder = std::move(outputBackReorder);
  } catch (const dnnl::error &) {
  }
}

/// The primitive for `key`, or nullptr when oneDNN takes no such
/// convolution (the caller then runs the plain loop).
std::shared_ptr<const ConvPlan> makePlan(const ConvKey &key) {
  using namespace dnnl;
  using dt = memory::data_type;
  auto [batch, groups, inChannels, outChannels, height, width, kernelH, kernelW,
        outH, outW, strideH, strideW, dilationH, dilationW, padTop, padLeft,
        flags] = key.sizes;
  // oneDNN derives the output's size from the input's and the padding. A
  // convolution that does not reach the input's last rows or columns gets
  // negative padding after them; oneDNN's kernels take a dense input only,
  // so a view of the rows it reaches would be a strided one, run by its
  // reference kernel.
  int64_t padBottom =
      (outH - 1) * strideH + (kernelH - 1) * dilationH + 1 - height - padTop;
  int64_t padRight =
      (outW - 1) * strideW + (kernelW - 1) * dilationW + 1 - width - padLeft;
  memory::dims inputDims{batch, groups * inChannels, height, width};
  memory::dims outputDims{batch, groups * outChannels, outH, outW};
  memory::dims filterDims, filterStrides;
  if (groups == 1) {
    filterDims = {outChannels, inChannels, kernelH, kernelW};
    filterStrides = {key.filterStrides[1], key.filterStrides[2],
                     key.filterStrides[3], key.filterStrides[4]};
  } else {
    filterDims = {groups, outChannels, inChannels, kernelH, kernelW};
    filterStrides = {key.filterStrides.begin(), key.filterStrides.end()};
  }
  memory::dims inputStrides(key.inputStrides.begin(), key.inputStrides.end());
  memory::dims outputStrides(key.outputStrides.begin(),
                             key.outputStrides.end());
  try {
    memory::desc input(inputDims, dt::f32,
                       normalizeStrides(inputDims, inputStrides));
    memory::desc output(outputDims, dt::f32,
                        normalizeStrides(outputDims, outputStrides));
    memory::desc userFilter(filterDims, dt::f32,
                            normalizeStrides(filterDims, filterStrides));
    memory::desc anyFilter(filterDims, dt::f32, memory::format_tag::any);
    memory::desc bias({groups * outChannels}, dt::f32, memory::format_tag::a);
    memory::dims strides{strideH, strideW},
        dilations{dilationH - 1, dilationW - 1};
    memory::dims before{padTop, padLeft}, after{padBottom, padRight};
    auto desc =
        key.bias ? convolution_forward::desc(prop_kind::forward_inference,
                                             algorithm::convolution_direct,
                                             input, anyFilter, bias, output,
                                             strides, dilations, before, after)
                 : convolution_forward::desc(prop_kind::forward_inference,
                                             algorithm::convolution_direct,
                                             input, anyFilter, output, strides,
                                             dilations, before, after);
    // oneDNN adds the bias before its post-ops: acc + bias + out.
    post_ops postOps;
    if (flags & NXRT_CONV2D_ACCUMULATE)
      postOps.append_sum(1.0f);
    // The ReLU compiled code folds in is arith.maximumf(x, 0): a NaN stays a
    // NaN, and a negative becomes +0. oneDNN's eltwise_relu of slope 0 is
    // a vector max that turns a NaN into 0. Its ELU of slope 0 and a +0
    // after it would be exact, but the exponential costs about 20
    // multiply-adds per output: a 3x3 depthwise convolution took 1.6x as
    // long with it, a 3x3x64 one 5% longer, than with reluInPlace after
    // the kernel.
    primitive_attr attributes = nxrt::withUserScratchpad(primitive_attr());
    attributes.set_post_ops(postOps);
    convolution_forward::primitive_desc primitive(desc, attributes,
                                                  nxrt::dnnlCpuEngine());
    auto plan = std::make_shared<ConvPlan>();
    plan->relu = flags & NXRT_CONV2D_RELU;
    plan->convolution = {convolution_forward(primitive),
                         primitive.scratchpad_desc()};
    plan->input = input;
    plan->output = output;
    plan->bias = bias;
    plan->userFilter = userFilter;
    plan->kernelFilter = primitive.weights_desc();
    if (isIndirect(primitive))
      withKernelLayouts(*plan, desc, attributes);
    plan->reorderFilter = plan->kernelFilter != userFilter;
    if (plan->reorderFilter)
      plan->filterReorder = makeReorder(userFilter, plan->kernelFilter);
    return plan;
  } catch (const dnnl::error &) {
    return nullptr;
  }
}

nxrt::PlanCache<ConvKey, ConvPlan> &planCache() {
  static auto *cache = new nxrt::PlanCache<ConvKey, ConvPlan>(makePlan);
  return *cache;
}

/// A thread's filters in their kernels' layout, one per plan, each with a
/// copy of the filter it was reordered from. A model passes the same
/// weights on every call: comparing them with the copy (a read) costs less
/// than reordering them (a read, a blocked write and a oneDNN call: 8 us of
/// a 70 us convolution on two threads), and a different filter, byte for
/// byte, is reordered again.
class ReorderedFilters {
public:
  /// `filter` in `plan`'s kernel layout, reordered on `stream` unless this
  /// thread already did so from the same bytes.
  void *get(const std::shared_ptr<const ConvPlan> &plan, const void *filter,
            dnnl::stream &stream) {
    Entry &entry = entries[plan.get()];
    size_t sourceBytes = plan->userFilter.get_size();
    if (entry.plan == plan && entry.source.size() == sourceBytes &&
        std::memcmp(entry.source.data(), filter, sourceBytes) == 0)
      return entry.reordered.get();
    if (entries.size() > kMaxEntries) {
      // A host cycling through many shapes: start over rather than grow.
      entries.clear();
      return get(plan, filter, stream);
    }
    size_t bytes = (plan->kernelFilter.get_size() + 63) / 64 * 64;
    entry.reordered.reset(std::aligned_alloc(64, bytes));
    if (!entry.reordered)
      throw dnnl::error(dnnl_out_of_memory, "no memory for the filter");
    entry.plan = nullptr;
    dnnl::engine &engine = nxrt::dnnlCpuEngine();
    dnnl::memory user(plan->userFilter, engine, const_cast<void *>(filter));
    dnnl::memory kernel(plan->kernelFilter, engine, entry.reordered.get());
    plan->filterReorder.run(stream,
                            {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, kernel}});
    const auto *bytesOf = static_cast<const unsigned char *>(filter);
    entry.source.assign(bytesOf, bytesOf + sourceBytes);
    // Held, so that no other plan reuses the address while the entry lives.
    entry.plan = plan;
    return entry.reordered.get();
  }

private:
  static constexpr size_t kMaxEntries = 32;
  struct FreeDeleter {
    void operator()(void *data) const { std::free(data); }
  };
  struct Entry {
    std::shared_ptr<const ConvPlan> plan;
    std::vector<unsigned char> source;
    std::unique_ptr<void, FreeDeleter> reordered;
  };
  absl::flat_hash_map<const ConvPlan *, Entry> entries;
};

/// The ReLU (nxrt::reluOf) over `count` adjacent values, in place: the loop the
/// machine's vector width compiles below.
__attribute__((always_inline)) inline void reluLoop(float *values,
                                                    int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    values[i] = nxrt::reluOf(values[i]);
}

using ReluFunction = void (*)(float *, int64_t);

void reluBaseline(float *values, int64_t count) { reluLoop(values, count); }

#if defined(__x86_64__) && defined(__GNUC__)
// The loop compiled for wider vectors than the baseline x86-64's four
// lanes, at which the ReLU after a 3x3 depthwise convolution cost half the
// kernel's time. Picked once by a check of the CPU rather than by an ifunc
// (target_clones): ifunc resolvers run before sanitizer runtimes start.
__attribute__((target("avx512f"))) void reluAvx512(float *values,
                                                   int64_t count) {
  reluLoop(values, count);
}
__attribute__((target("avx2"))) void reluAvx2(float *values, int64_t count) {
  reluLoop(values, count);
}
#endif

ReluFunction pickRelu() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return reluAvx512;
  if (__builtin_cpu_supports("avx2"))
    return reluAvx2;
#endif
  return reluBaseline;
}

/// The ReLU (nxrt::reluOf) over `count` adjacent values, in place, with the
/// widest vectors the machine has.
void reluContiguous(float *values, int64_t count) {
  static const ReluFunction function = pickRelu();
  function(values, count);
}

/// The convolution as plain loops, for what oneDNN does not take.
void convolveWithLoops(const ConvKey &key, const float *input,
                       const float *filter, const float *bias, int64_t biasC,
                       float *output) {
  auto [batch, groups, inChannels, outChannels, height, width, kernelH, kernelW,
        outH, outW, strideH, strideW, dilationH, dilationW, padTop, padLeft,
        flags] = key.sizes;
  const auto &is = key.inputStrides;
  const auto &fs = key.filterStrides;
  const auto &os = key.outputStrides;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t o = 0; o < outChannels; ++o)
        for (int64_t y = 0; y < outH; ++y)
          for (int64_t x = 0; x < outW; ++x) {
            float sum = 0.0f;
            for (int64_t c = 0; c < inChannels; ++c)
              for (int64_t ky = 0; ky < kernelH; ++ky)
                for (int64_t kx = 0; kx < kernelW; ++kx) {
                  int64_t row = y * strideH + ky * dilationH - padTop;
                  int64_t column = x * strideW + kx * dilationW - padLeft;
                  if (row < 0 || row >= height || column < 0 || column >= width)
                    continue;
                  sum += input[n * is[0] + (g * inChannels + c) * is[1] +
                               row * is[2] + column * is[3]] *
                         filter[g * fs[0] + o * fs[1] + c * fs[2] + ky * fs[3] +
                                kx * fs[4]];
                }
            int64_t channel = g * outChannels + o;
            float &out =
                output[n * os[0] + channel * os[1] + y * os[2] + x * os[3]];
            float value = (flags & NXRT_CONV2D_ACCUMULATE) ? out + sum : sum;
            if (bias)
              value += bias[channel * biasC];
            out = (flags & NXRT_CONV2D_RELU) ? nxrt::reluOf(value) : value;
          }
}

/// `bias` as oneDNN takes it, dense: itself, or a copy in a per-thread
/// buffer when its elements are not adjacent.
const float *denseBias(const float *bias, int64_t stride, int64_t channels) {
  if (!bias || stride == 1)
    return bias;
  thread_local std::vector<float> copy;
  copy.resize(channels);
  for (int64_t c = 0; c < channels; ++c)
    copy[c] = bias[c * stride];
  return copy.data();
}

/// The ReLU (nxrt::reluOf) over the output, in place, on the compute threads.
void reluInPlace(const ConvKey &key, float *output) {
  const ConvSizes &s = key.sizes;
  const auto &os = key.outputStrides;
  int64_t channels = s.groups * s.outChannels;
  int64_t rows = s.batch * s.outH;
  // Rows of pixels per thread; a team only for a pass worth waking one.
  bool parallel = key.threads > 1 && rows > 1 &&
                  rows * s.outW * channels >= kMinElementsPerTeam;
#pragma omp parallel for num_threads(key.threads) if (parallel)
  for (int64_t row = 0; row < rows; ++row) {
    int64_t n = row / s.outH, y = row % s.outH;
    float *rowStart = output + n * os[0] + y * os[2];
    // Dense NHWC rows are one run of values.
    if (os[1] == 1 && os[3] == channels) {
      reluContiguous(rowStart, s.outW * channels);
      continue;
    }
    for (int64_t x = 0; x < s.outW; ++x) {
      float *pixel = rowStart + x * os[3];
      if (os[1] == 1) {
        reluContiguous(pixel, channels);
      } else {
        for (int64_t c = 0; c < channels; ++c)
          pixel[c * os[1]] = nxrt::reluOf(pixel[c * os[1]]);
      }
    }
  }
}

/// Whether the output has no element: the call does nothing.
bool isEmptyOutput(int64_t batch, int64_t groups, int64_t outChannels,
                   int64_t outH, int64_t outW) {
  return batch <= 0 || groups <= 0 || outChannels <= 0 || outH <= 0 ||
         outW <= 0;
}

/// Whether a call of these sizes runs on a oneDNN primitive. An empty
/// output needs none; an empty sum (oneDNN takes no empty dimensions), or
/// an input the padding leaves no room in, goes to the loop, which adds
/// nothing to the output but the bias and the ReLU.
bool takesPrimitive(const ConvSizes &s) {
  return !isEmptyOutput(s.batch, s.groups, s.outChannels, s.outH, s.outW) &&
         s.inChannels > 0 && s.kernelH > 0 && s.kernelW > 0 && s.height > 0 &&
         s.width > 0;
}

/// Has the calling thread's buffers grown to what `plan` needs, and their
/// pages mapped: a first call would fault them in page by page, which on a
/// virtual machine took longer than the convolution.
void reserveThreadBuffers(const ConvPlan &plan) {
  ThreadBuffers &buffers = threadBuffers();
  size_t scratchpad = 0;
  for (const Step *step :
       {&plan.convolution, &plan.filterReorder, &plan.inputReorder,
        &plan.outputReorder, &plan.outputBackReorder})
    scratchpad = std::max(scratchpad, step->scratchpad.get_size());
  buffers.scratchpad.reserve(scratchpad);
  if (!plan.kernelLayouts)
    return;
  buffers.input.reserve(plan.kernelInput.get_size());
  buffers.output.reserve(plan.kernelOutput.get_size());
}

/// Runs `plan`'s filter reorder and convolution on the calling thread's
/// stream.
void runPlan(const ConvKey &key, const std::shared_ptr<const ConvPlan> &planRef,
             const float *input, const float *filter, const float *bias,
             float *output) {
  const ConvPlan &plan = *planRef;
  using dnnl::memory;
  dnnl::engine &engine = nxrt::dnnlCpuEngine();
  thread_local dnnl::stream stream(engine);
  // oneDNN's memory objects take non-const handles; neither input is
  // written.
  memory userFilter(plan.userFilter, engine, const_cast<float *>(filter));
  memory kernelFilter = userFilter;
  if (plan.reorderFilter) {
    thread_local ReorderedFilters reordered;
    kernelFilter = memory(plan.kernelFilter, engine,
                          reordered.get(planRef, filter, stream));
  }
  memory inputMemory(plan.input, engine, const_cast<float *>(input));
  memory outputMemory(plan.output, engine, output);
  memory kernelInput = inputMemory, kernelOutput = outputMemory;
  if (plan.kernelLayouts) {
    ThreadBuffers &buffers = threadBuffers();
    kernelInput = memory(plan.kernelInput, engine,
                         buffers.input.get(plan.kernelInput.get_size()));
    kernelOutput = memory(plan.kernelOutput, engine,
                          buffers.output.get(plan.kernelOutput.get_size()));
    plan.inputReorder.run(
        stream, {{DNNL_ARG_FROM, inputMemory}, {DNNL_ARG_TO, kernelInput}});
    // The sum post-op reads what the output held.
    if (key.sizes.flags & NXRT_CONV2D_ACCUMULATE)
      plan.outputBackReorder.run(
          stream, {{DNNL_ARG_FROM, outputMemory}, {DNNL_ARG_TO, kernelOutput}});
  }
  std::unordered_map<int, memory> arguments{{DNNL_ARG_SRC, kernelInput},
                                            {DNNL_ARG_WEIGHTS, kernelFilter},
                                            {DNNL_ARG_DST, kernelOutput}};
  if (bias)
    arguments.emplace(DNNL_ARG_BIAS,
                      memory(plan.bias, engine, const_cast<float *>(bias)));
  plan.convolution.run(stream, std::move(arguments));
  if (plan.kernelLayouts)
    plan.outputReorder.run(
        stream, {{DNNL_ARG_FROM, kernelOutput}, {DNNL_ARG_TO, outputMemory}});
  stream.wait();
  if (plan.relu)
    reluInPlace(key, output);
}

} // namespace

extern "C" {

void nxrt_conv2d_prepare_f32(int64_t batch, int64_t groups, int64_t inChannels,
                             int64_t outChannels, int64_t height, int64_t width,
                             int64_t kernelH, int64_t kernelW, int64_t outH,
                             int64_t outW, int64_t strideH, int64_t strideW,
                             int64_t dilationH, int64_t dilationW,
                             int64_t padTop, int64_t padLeft, int64_t flags,
                             int64_t inputN, int64_t inputC, int64_t inputH,
                             int64_t inputW, int64_t filterG, int64_t filterO,
                             int64_t filterI, int64_t filterH, int64_t filterW,
                             int64_t hasBias, int64_t outputN, int64_t outputC,
                             int64_t outputH, int64_t outputW) {
  ConvSizes sizes{batch,
                  groups,
                  inChannels,
                  outChannels,
                  height,
                  width,
                  kernelH,
                  kernelW,
                  outH,
                  outW,
                  strideH,
                  strideW,
                  dilationH,
                  dilationW,
                  padTop,
                  padLeft,
                  flags & (NXRT_CONV2D_ACCUMULATE | NXRT_CONV2D_RELU)};
  if (!takesPrimitive(sizes))
    return;
  // The key nxrt_conv2d_f32 makes outside a parallel region.
  ConvKey key{sizes,
              {inputN, inputC, inputH, inputW},
              {filterG, filterO, filterI, filterH, filterW},
              {outputN, outputC, outputH, outputW},
              hasBias != 0,
              nxrt_compute_threads()};
  nxrt::OpenMPThreads team(key.threads);
  if (std::shared_ptr<const ConvPlan> plan = planCache().get(key))
    reserveThreadBuffers(*plan);
}

void nxrt_conv2d_f32(int64_t batch, int64_t groups, int64_t inChannels,
                     int64_t outChannels, int64_t height, int64_t width,
                     int64_t kernelH, int64_t kernelW, int64_t outH,
                     int64_t outW, int64_t strideH, int64_t strideW,
                     int64_t dilationH, int64_t dilationW, int64_t padTop,
                     int64_t padLeft, int64_t flags, const float *input,
                     int64_t inputN, int64_t inputC, int64_t inputH,
                     int64_t inputW, const float *filter, int64_t filterG,
                     int64_t filterO, int64_t filterI, int64_t filterH,
                     int64_t filterW, const float *bias, int64_t biasC,
                     float *output, int64_t outputN, int64_t outputC,
                     int64_t outputH, int64_t outputW) {
  if (isEmptyOutput(batch, groups, outChannels, outH, outW))
    return;
  flags &= NXRT_CONV2D_ACCUMULATE | NXRT_CONV2D_RELU;
  // Inside a parallel region oneDNN would run serially anyway.
  int threads = omp_in_parallel() ? 1 : nxrt_compute_threads();
  ConvKey key{{batch, groups, inChannels, outChannels, height, width, kernelH,
               kernelW, outH, outW, strideH, strideW, dilationH, dilationW,
               padTop, padLeft, flags},
              {inputN, inputC, inputH, inputW},
              {filterG, filterO, filterI, filterH, filterW},
              {outputN, outputC, outputH, outputW},
              bias != nullptr,
              threads};
  if (!takesPrimitive(key.sizes)) {
    convolveWithLoops(key, input, filter, bias, biasC, output);
    return;
  }
  const float *denseBiasValues = denseBias(bias, biasC, groups * outChannels);
  // oneDNN's kernels fix their thread count when they are made: the team's
  // size must be set before.
  nxrt::OpenMPThreads team(threads);
  std::shared_ptr<const ConvPlan> plan = planCache().get(key);
  if (!plan) {
    convolveWithLoops(key, input, filter, bias, biasC, output);
    return;
  }
  // oneDNN reports failures (memory for its scratchpad, say) as
  // exceptions, which must not cross this C entry point. Those come from
  // allocations before its kernel runs, so the loop can still compute the
  // output.
  try {
    runPlan(key, plan, input, filter, denseBiasValues, output);
  } catch (const dnnl::error &) {
    convolveWithLoops(key, input, filter, bias, biasC, output);
  }
}

} // extern "C"
