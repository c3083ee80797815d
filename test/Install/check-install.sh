#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs a build tree into a fresh prefix, then builds and runs the small
# out-of-tree consumers of the packages it names, against that prefix only:
#
#   check-install.sh BUILD_DIR WORK_DIR "C_FLAGS" PACKAGE...   (nxrt, NxMLIR)
#
# Also checks what an install promises: libnxrt's SONAME carries the API
# version, and no installed binary's RUNPATH points into the build tree.
set -euo pipefail
build=$(cd "$1" && pwd); work=$2; cflags=$3; shift 3
src=$(cd "$(dirname "$0")" && pwd)
prefix=$work/prefix
rm -rf "$work"; mkdir -p "$work"

cmake --install "$build" --prefix "$prefix" >"$work/install.log"

api=$(sed -n 's/^#define NXRT_API_VERSION \([0-9]*\)$/\1/p' "$prefix/include/nxrt/nxrt.h")
soname=$(readelf -d "$prefix/lib/libnxrt.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [[ "$soname" != "libnxrt.so.$api" ]]; then
  echo "FAIL: libnxrt's SONAME is '$soname', expected libnxrt.so.$api" >&2
  exit 1
fi
echo "libnxrt SONAME: $soname"

for binary in "$prefix"/bin/* "$prefix"/lib/*.so; do
  [[ -L "$binary" ]] && continue
  runpath=$(readelf -d "$binary" | sed -n 's/.*R\(UN\)\?PATH.*\[\(.*\)\]/\2/p')
  if [[ "$runpath" == *"$build"* ]]; then
    echo "FAIL: $binary has RUNPATH '$runpath' into the build tree" >&2
    exit 1
  fi
  if [[ "$binary" == */bin/* && "$runpath" != *'$ORIGIN'* ]]; then
    echo "FAIL: $binary has RUNPATH '$runpath' without \$ORIGIN" >&2
    exit 1
  fi
done
echo "RUNPATHs: relative to \$ORIGIN, none into the build tree"

for package in "$@"; do
  case $package in
    nxrt) consumer=nxrt-consumer ;;
    NxMLIR) consumer=nxmlir-consumer ;;
    *) echo "unknown package $package" >&2; exit 2 ;;
  esac
  cmake -G Ninja -S "$src/$consumer" -B "$work/$consumer" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cflags" \
    -DCMAKE_EXE_LINKER_FLAGS="$cflags" >"$work/$consumer.configure.log" 2>&1 ||
    { cat "$work/$consumer.configure.log" >&2; exit 1; }
  ninja -C "$work/$consumer" >"$work/$consumer.build.log" 2>&1 ||
    { cat "$work/$consumer.build.log" >&2; exit 1; }
  echo "== $package: $consumer"
  "$work/$consumer/$consumer"
done

# The installed tools, from the prefix alone: nx-compile links against the
# prefix's libnxrt, nxrt-run runs the object, and both agree with nx-runner.
if [[ " $* " == *" NxMLIR "* ]]; then
  cat >"$work/add.mlir" <<'MLIR'
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
MLIR
  "$prefix/bin/nx-compile" "$work/add.mlir" -o "$work/add.so"
  # Away from the prefix, the shared object still finds the prefix's
  # libnxrt by itself (its RUNPATH), without LD_LIBRARY_PATH.
  if env -u LD_LIBRARY_PATH ldd "$work/add.so" | grep -q "not found"; then
    echo "FAIL: $work/add.so does not find its libraries:" >&2
    env -u LD_LIBRARY_PATH ldd "$work/add.so" >&2
    exit 1
  fi
  echo "== installed nx-compile's shared object finds libnxrt: $(env -u LD_LIBRARY_PATH ldd "$work/add.so" | grep -o '=> [^ ]*libnxrt[^ ]*')"
  aot=$("$prefix/bin/nxrt-run" "$work/add.so" --input='[1, 2, 3]:tensor<3xf32>')
  jit=$("$prefix/bin/nx-runner" "$work/add.mlir" --input='[1, 2, 3]:tensor<3xf32>')
  if [[ "$aot" != "$jit" || "$aot" != *"[2, 4, 6]"* ]]; then
    echo "FAIL: installed nxrt-run printed '$aot', nx-runner '$jit'" >&2
    exit 1
  fi
  echo "== installed nx-compile + nxrt-run: $aot"
fi

