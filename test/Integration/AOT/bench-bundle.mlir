// The benchmark bundle (bench/bundle): make_bundle.py compiles two cases of
// bench/models with nx-compile for x86-64-v3, and a variant of one with
// another flag, and stages nxrt-run with every library it loads; run.py,
// run from the staged copy with only the bundled libraries on its library
// path, checks nx's results against NumPy and prints the table of times at
// 1 thread and at 2, and the variant's against the case's.
// REQUIRES: numpy
// The bundle is a benchmark tool: the sanitizer builds leave it out.
// UNSUPPORTED: sanitizer
// RUN: rm -rf %t && %numpy_python %nx_src_root/bench/bundle/make_bundle.py \
// RUN:   --build-dir=%nx_obj_root --output=%t --cases=column-sum,mlp \
// RUN:   --levels=x86-64-v3 --variant=mlp:--blas=false \
// RUN:   | FileCheck %s --check-prefix=MAKE
// RUN: test -x %t/bin/nxrt-run && test -f %t/lib/libdnnl.so.2
// RUN: test -L %t/lib/libgomp.so.1 && test -f %t/objects/x86-64-v3/mlp.so
// RUN: %numpy_python %t/run.py --runs=2 --rounds=1 --threads=2 --no-peers \
// RUN:   | FileCheck %s --check-prefix=TABLE
// RUN: not %numpy_python %t/run.py --cases=no-such-case 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN

// MAKE: nx-compile --mcpu=x86-64-v3 column-sum.mlir
// MAKE: nx-compile --mcpu=x86-64-v3 mlp.mlir
// MAKE: nx-compile --mcpu=x86-64-v3 --blas=false mlp.mlir
// MAKE: wrote {{.*}}: python3 {{.*}}/run.py
// TABLE: 2 cores (1 thread on core {{[0-9]+}}); nx objects for x86-64-v3; CPU flags {{.*}}avx2{{.*}}; sides: nx;
// TABLE: | case | nx 1 | XLA 1 | PyTorch 1 | nx 2 | XLA 2 | PyTorch 2 | nx / best, 1 | nx / best, 2 |
// TABLE: | mlp | {{[0-9.]+}} | - | - | {{[0-9.]+}} | - | - | - | - |
// TABLE: | column-sum | {{[0-9.]+}} | - | - | {{[0-9.]+}} | - | - | - | - |
// TABLE: First run against steady state (ms):
// TABLE: | mlp | {{[0-9.]+}} / {{[0-9.]+}} | - | - | {{[0-9.]+}} / {{[0-9.]+}} | - | - |
// TABLE: nx's variants against its default
// TABLE: | case | nx-compile flags | nx 1 | variant 1 | variant / nx, 1 | nx 2 | variant 2 | variant / nx, 2 |
// TABLE: | mlp | `--blas=false` | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}}x | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}}x |
// UNKNOWN: models.py: unknown model 'no-such-case'
// RUN: not %numpy_python %t/run.py --cases=transpose 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: run.py: the bundle has no x86-64-v3 object for transpose
// --core picks the core of the 1-thread runs; one this process may not use
// is refused before anything runs.
// RUN: %numpy_python %t/run.py --runs=2 --rounds=1 --threads=2 --no-peers \
// RUN:   --cases=column-sum --core=0 | FileCheck %s --check-prefix=CORE
// RUN: not %numpy_python %t/run.py --core=4096 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-CORE
// CORE: 2 cores (1 thread on core 0); nx objects for x86-64-v3; CPU flags {{.+}}; sides: nx;
// CORE: | column-sum | {{[0-9.]+}} | - | - | {{[0-9.]+}} | - | - | - | - |
// CORE-NOT: variants
// --no-variants times none; a variant of a case outside the bundle, or
// without flags, is refused.
// RUN: %numpy_python %t/run.py --runs=2 --rounds=1 --threads=2 --no-peers \
// RUN:   --cases=mlp --no-variants | FileCheck %s --check-prefix=NO-VARIANTS
// NO-VARIANTS: | mlp | {{[0-9.]+}} | - | - | {{[0-9.]+}} | - | - | - | - |
// NO-VARIANTS-NOT: variants
// RUN: not %numpy_python %nx_src_root/bench/bundle/make_bundle.py \
// RUN:   --build-dir=%nx_obj_root --output=%t.bad --cases=mlp \
// RUN:   --variant=transpose:--blas=false 2>&1 | FileCheck %s --check-prefix=BAD-VARIANT
// RUN: not %numpy_python %nx_src_root/bench/bundle/make_bundle.py \
// RUN:   --build-dir=%nx_obj_root --output=%t.bad --cases=mlp \
// RUN:   --variant=mlp 2>&1 | FileCheck %s --check-prefix=BAD-VARIANT
// BAD-VARIANT: make_bundle.py: --variant={{.+}}: expected CASE:FLAG[:FLAG...] for a case of the bundle
// BAD-CORE: run.py: --core=4096 is not a core this process may use
