#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Exports every valid nx module of the lit and integration suites (each
# `// -----` chunk that nx-opt parses and verifies on its own) with both
# callback ABIs (and both id encodings of the older one), and checks the
# result against a real StableHLO
# build:
#   1. `stablehlo-opt` loads and verifies the export as is (no
#      --allow-unregistered-dialect);
#   2. its generic print (`--mlir-print-op-generic`, properties form)
#      imports back to the nx the export started from (callback
#      declarations may move to the top of the module);
#   3. where the module is pure StableHLO (no arith/linalg/... compute), a
#      VHLO serialize/deserialize round trip imports back to the same nx.
#
# usage: tools/stablehlo-check/check-exports.sh STABLEHLO_BUILD_BIN [NX_BUILD_BIN]
# StableHLO is not a dependency of nx: build stablehlo-opt/-translate from a
# StableHLO snapshot against the same MLIR (see docs/StableHLO.md). Nothing here runs in CI.
set -euo pipefail
shlo_bin=${1:?usage: $0 STABLEHLO_BUILD_BIN [NX_BUILD_BIN]}
root=$(cd "$(dirname "$0")/../.." && pwd)
nx_bin=${2:-$root/build/bin}
shlo_opt=$shlo_bin/stablehlo-opt shlo_translate=$shlo_bin/stablehlo-translate
nx_opt=$nx_bin/nx-opt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$root/test" "$work" <<'PY'
import pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(root.rglob("*.mlir")):
    for index, chunk in enumerate(path.read_text().split("\n// -----\n")):
        name = str(path.relative_to(root)).replace("/", "_")
        (out / f"{name}.{index}.in.mlir").write_text(chunk)
PY

modules=0 accepted=0 rejected=0 same=0 differ=0 vhlo_same=0 vhlo_differ=0 vhlo_unserializable=0
for chunk in "$work"/*.in.mlir; do
  "$nx_opt" "$chunk" >/dev/null 2>&1 || continue
  for abi in exla exla-legacy "exla-legacy callback-id-encoding=operand"; do
    base=${chunk%.in.mlir}.${abi//[ =]/-}
    "$nx_opt" "$chunk" --allow-unregistered-dialect -nx-assign-callback-ids \
      "-convert-nx-to-custom-call=callback-abi=$abi" -o "$base.nx.mlir" 2>/dev/null || continue
    "$nx_opt" "$base.nx.mlir" --allow-unregistered-dialect -nx-export-stablehlo \
      -o "$base.export.mlir" 2>/dev/null || continue
    modules=$((modules + 1))
    if ! "$shlo_opt" "$base.export.mlir" --mlir-print-op-generic -o "$base.generic.mlir" 2>"$base.err"; then
      rejected=$((rejected + 1)); echo "REJECTED $(basename "$base")"; head -n 3 "$base.err"; continue
    fi
    accepted=$((accepted + 1))
    # Declarations come back first: compare the modules as sorted lines.
    if "$nx_opt" "$base.generic.mlir" --allow-unregistered-dialect -nx-import-stablehlo \
         -o "$base.back.mlir" 2>"$base.err" &&
       diff -q <(sort "$base.nx.mlir") <(sort "$base.back.mlir") >/dev/null; then
      same=$((same + 1))
    else
      differ=$((differ + 1)); echo "DIFFERS $(basename "$base")"; head -n 3 "$base.err"
    fi
    grep -qE '\b(arith|linalg|tensor|tosa|scf|math|memref|bufferization)\.' "$base.export.mlir" && continue
    # VHLO serializes only StableHLO programs: scalar function types or cf
    # branches (some tests' plumbing) are not, whatever nx emits.
    if ! "$shlo_translate" --serialize --target=current "$base.export.mlir" -o "$base.vhlo" 2>/dev/null; then
      vhlo_unserializable=$((vhlo_unserializable + 1)); continue
    fi
    if "$shlo_translate" --deserialize "$base.vhlo" | "$shlo_opt" --mlir-print-op-generic |
         "$nx_opt" --allow-unregistered-dialect -nx-import-stablehlo -o "$base.vback.mlir" 2>>"$base.err" &&
       diff -q <(sort "$base.nx.mlir") <(sort "$base.vback.mlir") >/dev/null; then
      vhlo_same=$((vhlo_same + 1))
    else
      vhlo_differ=$((vhlo_differ + 1)); echo "VHLO DIFFERS $(basename "$base")"; head -n 3 "$base.err"
    fi
  done
done
echo "exported modules: $modules; stablehlo-opt accepted $accepted, rejected $rejected"
echo "generic print re-imported to the same nx: $same, differently: $differ"
echo "VHLO round trips (pure StableHLO modules) re-imported to the same nx: $vhlo_same, differently: $vhlo_differ ($vhlo_unserializable not serializable as VHLO)"
[ "$rejected" = 0 ] && [ "$differ" = 0 ] && [ "$vhlo_differ" = 0 ]
