#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# nx-mlir developer entry point. Installs missing Debian packages (idempotent,
# silent when everything is present), configures once, builds incrementally.
#
#   ./dev.sh example   run examples/ through the whole pipeline: StableHLO
#                      export, the JIT, and ahead-of-time compilation;
#                      installs and builds only what the example needs
#   ./dev.sh test      run every test: lit (check-nx), ctest, the Elixir
#                      bindings' ExUnit suite (mix test), the runtime
#                      tests under TSan, every unit test and the lit suite
#                      under ASan+UBSan, and a 60 s libFuzzer smoke run
#   ./dev.sh fuzz [SECONDS] [JOBS] [SEED]
#                      fuzz nx-opt-fuzzer (default 3600 s, 1 job, a random
#                      seed); the corpus is kept in build-fuzz/corpus,
#                      crashes in build-fuzz/crashes
#   ./dev.sh bench     the model benchmarks (bench/models) against PyTorch
#                      eager (Debian's python3-torch, installed on first use)
#   ./dev.sh bench-bundle [OUT.tar.xz]
#                      write the portable benchmark bundle (default
#                      build/nx-bench.tar.xz): nxrt-run, its libraries and
#                      every model and op compiled for x86-64-v3 and -v4;
#                      on any x86-64 Linux host, `python3 nx-bench/run.py`
#                      times them next to PyTorch and XLA
#   ./dev.sh build     just build
#
# Environment: BUILD_DIR (default ./build), JOBS (default: nproc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
TSAN_BUILD_DIR="${TSAN_BUILD_DIR:-$ROOT/build-tsan}"
FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
JOBS="${JOBS:-$(nproc)}"
# Compiler caching across checkouts: paths under the checkout are hashed
# relative to it, so a fresh clone (CI's) reuses an earlier build's objects
# (but for lib/'s unity batches, whose generated sources include theirs by
# absolute path; NX_UNITY_BUILD in CMakeLists.txt).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
LLVM_PREFIX=/usr/lib/llvm-22

# What ./dev.sh example needs: the compiler, the runners and libnxrt.
EXAMPLE_PACKAGES=(
  g++ cmake ninja-build ccache python3
  llvm-22-dev libmlir-22-dev mlir-22-tools
  libabsl-dev liblapacke-dev libopenblas-dev libopenblas-openmp-dev
  libomp-22-dev libdnnl-dev
)
# What the tests, benchmarks, sanitizer and fuzzing trees and the Elixir
# bindings add.
TEST_PACKAGES=(
  python3-numpy git libgtest-dev libgmock-dev libbenchmark-dev
  clang-22 libfuzzer-22-dev libclang-rt-22-dev clang-format
  elixir erlang-dev
)
# The targets ./dev.sh example runs.
EXAMPLE_TARGETS=(nx-opt nx-runner nx-compile nxrt-run nxrt NxExampleCallbacks)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# missing_packages PKG...: prints those not installed.
missing_packages() {
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
      echo "$pkg"
    fi
  done
}

# ensure_packages PKG...: installs those missing.
ensure_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@")
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# configure DIR [extra cmake args...]: configures DIR, again only when the
# arguments changed; otherwise later calls only rebuild (ninja re-runs cmake
# itself when a CMakeLists.txt changes).
configure() {
  local dir="$1"; shift
  local stamp="$dir/.nx-configure-args"
  if [[ ! -f "$dir/build.ninja" || "$(cat "$stamp" 2>/dev/null)" != "$*" ]]; then
    log "configuring $dir"
    cmake -G Ninja -S "$ROOT" -B "$dir" --no-warn-unused-cli \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER_LAUNCHER=ccache \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DPython3_EXECUTABLE=/usr/bin/python3 \
      "$@" >/dev/null
    echo "$*" > "$stamp"
  fi
}

# The main tree, with its tests and benchmarks once their packages are
# there (./dev.sh example does without them).
configure_main() {
  local extras=ON
  [[ -n "$(missing_packages "${TEST_PACKAGES[@]}")" ]] && extras=OFF
  configure "$BUILD_DIR" -DNX_ENABLE_TESTS=$extras -DNX_ENABLE_BENCHMARKS=$extras
}

build() {
  ensure_packages "${EXAMPLE_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  configure_main
  log "building ($BUILD_DIR)"
  ninja -C "$BUILD_DIR" -j"$JOBS"
}

# Only what the example runs, from only the packages it needs.
build_example() {
  ensure_packages "${EXAMPLE_PACKAGES[@]}"
  configure_main
  log "building the example's tools ($BUILD_DIR)"
  ninja -C "$BUILD_DIR" -j"$JOBS" "${EXAMPLE_TARGETS[@]}"
}

run_example() {
  build_example
  local example="$ROOT/examples/callbacks.mlir"
  log "compile for XLA: $example as StableHLO custom calls"
  "$BUILD_DIR/bin/nx-opt" "$example" --allow-unregistered-dialect \
    --nx-assign-callback-ids --convert-nx-to-custom-call --nx-export-stablehlo
  log "run on CPU: nx-runner (nx-lower-to-cpu + JIT + libnxrt, callbacks from examples/callbacks)"
  "$BUILD_DIR/bin/nx-runner" "$example" \
    --callbacks="$BUILD_DIR/lib/libNxExampleCallbacks.so" \
    --input='[1, 2, 2, 4]:tensor<4xf32>' --outfeed=results
  log "ahead of time: nx-compile to a shared object, run by nxrt-run (libnxrt only, no MLIR)"
  "$BUILD_DIR/bin/nx-compile" "$example" -o "$BUILD_DIR/examples/callbacks.so" \
    --emit-header="$BUILD_DIR/examples/callbacks.h"
  "$BUILD_DIR/bin/nxrt-run" "$BUILD_DIR/examples/callbacks.so" \
    --callbacks="$BUILD_DIR/lib/libNxExampleCallbacks.so" \
    --input='[1, 2, 2, 4]:tensor<4xf32>' --outfeed=results
}

run_tests() {
  build
  log "lit: check-nx"
  ninja -C "$BUILD_DIR" check-nx
  log "ctest: unit tests"
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS"
  run_elixir_tests
  # The runtime promises concurrent runs, re-entrant callbacks and a bridge
  # shared by many threads: TSan checks those tests for data races.
  log "ctest: runtime tests under TSan"
  configure "$TSAN_BUILD_DIR" -DNX_ENABLE_COMPILER=OFF -DNX_ENABLE_BENCHMARKS=OFF -DNX_SANITIZER=thread
  ninja -C "$TSAN_BUILD_DIR" -j"$JOBS" >/dev/null
  ctest --test-dir "$TSAN_BUILD_DIR" --output-on-failure -j"$JOBS"
  # One ASan+UBSan tree for everything: the fuzzing build holds the
  # runtime, the compiler, the tools and all their unit tests.
  build_fuzz
  log "ctest: every unit test under ASan+UBSan"
  ctest --test-dir "$FUZZ_BUILD_DIR" --output-on-failure -j"$JOBS"
  log "lit: check-nx with the compiler and tools under ASan+UBSan"
  ninja -C "$FUZZ_BUILD_DIR" -j"$JOBS" check-nx
  # A fixed seed: the smoke run explores the same inputs on every machine,
  # so a failure it reports can be replayed (campaigns use random seeds).
  fuzz 60 1 1
}

# bindings/elixir: builds the NIF against this build's libnxrt and runs its
# ExUnit suite, whose programs nx-compile compiles.
run_elixir_tests() {
  log "mix test: bindings/elixir"
  (cd "$ROOT/bindings/elixir" &&
    MIX_ENV=test NX_LIB_DIR="$BUILD_DIR/lib" NX_COMPILE="$BUILD_DIR/bin/nx-compile" mix test)
}

# The compiler, its tools and the fuzzing harness built with clang under
# ASan+UBSan, with libFuzzer coverage instrumentation.
build_fuzz() {
  ensure_packages "${EXAMPLE_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  configure "$FUZZ_BUILD_DIR" -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DNX_SANITIZER=address -DNX_ENABLE_FUZZER=ON -DNX_ENABLE_BENCHMARKS=OFF
  log "building ($FUZZ_BUILD_DIR)"
  ninja -C "$FUZZ_BUILD_DIR" -j"$JOBS" >/dev/null
}

# fuzz SECONDS [JOBS] [SEED]: runs nx-opt-fuzzer from the seed corpus (the lit
# suite and the hand-written seeds in tools/nx-opt-fuzzer/seeds) plus what
# earlier runs kept, in libFuzzer's fork mode, which goes on past a crash or
# a hang (10 s) and keeps the input in build-fuzz/crashes. SEED 0 (the
# default) is a random seed, any other value a fixed one. Mutations are
# structure-aware (tools/nx-opt-fuzzer/Mutator.h) half of the time.
# Then every kept input is run again and sorted: one in nx (a crash or hang
# while passes run, or a broken promise the harness checks) fails the
# command; a crash in upstream MLIR's parser is listed and tolerated.
# Last, nxhost-input-fuzzer fuzzes the runners' --input literals and .npy
# files for a quarter of SECONDS (fuzz_inputs).
fuzz() {
  local seconds="${1:-3600}" jobs="${2:-1}" seed="${3:-0}"
  local fuzzer="$FUZZ_BUILD_DIR/bin/nx-opt-fuzzer"
  local corpus="$FUZZ_BUILD_DIR/corpus" seeds="$FUZZ_BUILD_DIR/seeds"
  local crashes="$FUZZ_BUILD_DIR/crashes"
  rm -rf "$seeds" "$crashes"
  python3 "$ROOT/tools/nx-opt-fuzzer/make-corpus.py" --fuzzer "$fuzzer" \
    --seeds "$ROOT/tools/nx-opt-fuzzer/seeds" "$ROOT/test" "$seeds"
  mkdir -p "$corpus" "$crashes"
  log "fuzzing nx-opt-fuzzer for ${seconds} s (${jobs} job(s)); log in $FUZZ_BUILD_DIR/fuzz.log"
  local status=0
  "$fuzzer" "$corpus" "$seeds" -dict="$ROOT/tools/nx-opt-fuzzer/nx.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
    -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -print_final_stats=1 -artifact_prefix="$crashes/" -seed="$seed" \
    >"$FUZZ_BUILD_DIR/fuzz.log" 2>&1 || status=$?
  grep -aE "^#[0-9]+: cov:" "$FUZZ_BUILD_DIR/fuzz.log" | tail -n 1 >&2 || true
  # Fork mode exits with the status of the last failure it kept: triage
  # decides whose those are. A failure that kept nothing is the run's own.
  if ((status != 0)) && [[ -z "$(ls -A "$crashes")" ]]; then
    tail -n 40 "$FUZZ_BUILD_DIR/fuzz.log" >&2
    return 1
  fi
  python3 "$ROOT/tools/nx-opt-fuzzer/triage.py" --fuzzer "$fuzzer" "$crashes"
  fuzz_inputs $((seconds / 4 > 10 ? seconds / 4 : 10)) "$seed"
}

# fuzz_inputs SECONDS SEED: nxhost-input-fuzzer from its seeds
# (runtime/tools/nxhost-input-fuzzer/seeds) plus what earlier runs kept. All
# its code is nx's, so the first crash, hang (10 s) or broken promise stops
# it and fails the command, its input kept in build-fuzz/input-crashes.
fuzz_inputs() {
  local seconds="$1" seed="$2"
  local corpus="$FUZZ_BUILD_DIR/input-corpus" crashes="$FUZZ_BUILD_DIR/input-crashes"
  rm -rf "$crashes"
  mkdir -p "$corpus" "$crashes"
  log "fuzzing nxhost-input-fuzzer for ${seconds} s; log in $FUZZ_BUILD_DIR/input-fuzz.log"
  local status=0
  "$FUZZ_BUILD_DIR/bin/nxhost-input-fuzzer" "$corpus" \
    "$ROOT/runtime/tools/nxhost-input-fuzzer/seeds" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$crashes/" -seed="$seed" \
    >"$FUZZ_BUILD_DIR/input-fuzz.log" 2>&1 || status=$?
  grep -aE "^#[0-9]+.*cov:" "$FUZZ_BUILD_DIR/input-fuzz.log" | tail -n 1 >&2 || true
  if ((status != 0)); then
    grep -avE "failed to allocate" "$FUZZ_BUILD_DIR/input-fuzz.log" | tail -n 40 >&2
    return 1
  fi
}

# bench/models/compare.py: nx-bench-models and PyTorch eager on the same
# models, in one run; its Markdown table is docs/Performance.md's "Whole
# models".
run_model_benchmarks() {
  build
  ensure_packages python3-torch
  /usr/bin/python3 "$ROOT/bench/models/compare.py" \
    --nx-bench "$BUILD_DIR/bin/nx-bench-models"
}

# bench/bundle/make_bundle.py: the benchmark bundle for bigger hosts.
make_bench_bundle() {
  build
  /usr/bin/python3 "$ROOT/bench/bundle/make_bundle.py" --build-dir "$BUILD_DIR" \
    --output "${1:-$BUILD_DIR/nx-bench.tar.xz}"
}

case "${1:-}" in
  example) run_example ;;
  bench) run_model_benchmarks ;;
  bench-bundle) make_bench_bundle "${2:-}" ;;
  test) run_tests ;;
  fuzz) build_fuzz; fuzz "${2:-3600}" "${3:-1}" "${4:-0}" ;;
  build) build ;;
  *) echo "usage: $0 {example|test|fuzz [SECONDS] [JOBS] [SEED]|bench|bench-bundle [OUT.tar.xz]|build}" >&2; exit 2 ;;
esac
