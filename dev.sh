#!/usr/bin/env bash
# nx-mlir developer entry point. Installs missing Debian packages (idempotent,
# silent when everything is present), configures once, builds incrementally.
#
#   ./dev.sh example   run examples/ through the whole pipeline
#   ./dev.sh test      run every test: lit (check-nx), ctest, and the runtime
#                      tests under ASan+UBSan
#   ./dev.sh build     just build
#
# Environment: BUILD_DIR (default ./build), JOBS (default: nproc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
ASAN_BUILD_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${JOBS:-$(nproc)}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  g++ cmake ninja-build ccache python3 git
  llvm-22-dev libmlir-22-dev mlir-22-tools
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  liblapacke-dev libopenblas-dev
)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

ensure_packages() {
  local missing=()
  for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# configure DIR [extra cmake args...]: configures DIR once; later calls only
# rebuild (ninja re-runs cmake itself when a CMakeLists.txt changes).
configure() {
  local dir="$1"; shift
  if [[ ! -f "$dir/build.ninja" ]]; then
    log "configuring $dir"
    cmake -G Ninja -S "$ROOT" -B "$dir" --no-warn-unused-cli \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DPython3_EXECUTABLE=/usr/bin/python3 \
      "$@" >/dev/null
  fi
}

build() {
  ensure_packages
  configure "$BUILD_DIR"
  log "building ($BUILD_DIR)"
  ninja -C "$BUILD_DIR" -j"$JOBS"
}

run_example() {
  build
  local example="$ROOT/examples/callbacks.mlir"
  log "compile for XLA: $example as StableHLO custom calls"
  "$BUILD_DIR/bin/nx-opt" "$example" --allow-unregistered-dialect \
    --nx-assign-callback-ids --convert-nx-to-custom-call --nx-export-stablehlo
  log "run on CPU: nx-runner (nx-lower-to-cpu + JIT + libnxrt, callbacks from examples/callbacks)"
  "$BUILD_DIR/bin/nx-runner" "$example" \
    --callbacks="$BUILD_DIR/lib/libNxExampleCallbacks.so" \
    --input='[1, 2, 2, 4]:tensor<4xf32>' --outfeed=results
}

run_tests() {
  build
  log "lit: check-nx"
  ninja -C "$BUILD_DIR" check-nx
  log "ctest: unit tests"
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS"
  log "ctest: runtime tests under ASan+UBSan"
  configure "$ASAN_BUILD_DIR" -DNX_ENABLE_COMPILER=OFF -DNX_ENABLE_BENCHMARKS=OFF -DNX_SANITIZER=address
  ninja -C "$ASAN_BUILD_DIR" -j"$JOBS" >/dev/null
  ctest --test-dir "$ASAN_BUILD_DIR" --output-on-failure -j"$JOBS"
}

case "${1:-}" in
  example) run_example ;;
  test) run_tests ;;
  build) build ;;
  *) echo "usage: $0 {example|test|build}" >&2; exit 2 ;;
esac
