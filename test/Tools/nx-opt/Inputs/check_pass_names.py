# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the naming scheme of every pass and pipeline nx registers.

The flags nx-opt lists and upstream's mlir-opt does not are nx's. Each must
start with `nx-`, except conversions out of the nx dialect, which follow
upstream's `convert-nx-to-...`. A pass's record (the name -mlir-timing
shows) must be `Nx...Pass`, or `ConvertNxTo...Pass` for those conversions.

Usage: check_pass_names.py NX_OPT MLIR_OPT
"""
import re
import subprocess
import sys

# A pass or pipeline in --help: six spaces, the flag, its summary.
FLAG = re.compile(r'^      --([a-z0-9-]+)\s')
# A pass's line in -mlir-timing's report: a user time column when passes
# ran on several threads, the wall time, the name. Pass managers' own
# lines ("Pipeline Collection : [...]") have spaces and are left out.
TIMED = re.compile(r'^\s+(?:[0-9.]+\s+\(\s*[0-9.]+%\)\s+)+(\S+)$')


def listed_flags(tool):
    help_text = subprocess.run([tool, '--help'], capture_output=True,
                               text=True, check=True).stdout
    return {m.group(1) for line in help_text.splitlines()
            if (m := FLAG.match(line))}


def record_names(nx_opt, flag):
    """The records -mlir-timing reports for `flag` run on an empty module,
    or None when it is a pipeline of other passes."""
    run = subprocess.run(
        [nx_opt, '-', '-o', '/dev/null', f'--{flag}', '-mlir-timing',
         '-mlir-timing-display=list'],
        input='module {}\n', capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f'--{flag} failed on an empty module:\n{run.stderr}')
    names = [m.group(1) for line in run.stderr.splitlines()
             if (m := TIMED.match(line))]
    return [n for n in names if n not in ('root', 'Parser', 'Output', 'Rest', 'Total')]


def main():
    nx_opt, mlir_opt = sys.argv[1:3]
    ours = sorted(listed_flags(nx_opt) - listed_flags(mlir_opt))
    if len(ours) < 20:
        raise SystemExit(f'found only {len(ours)} nx flags: {ours}')
    failures = []
    for flag in ours:
        conversion = flag.startswith('convert-nx-to-')
        if not (flag.startswith('nx-') or conversion):
            failures.append(f'--{flag}: flag starts with neither nx- nor '
                            'convert-nx-to-')
            continue
        records = record_names(nx_opt, flag)
        # A pipeline runs several passes, checked under their own flags.
        if len(records) != 1:
            print(f'--{flag}: pipeline of {len(records)} passes')
            continue
        record = records[0]
        expected = r'ConvertNxTo\w+Pass' if conversion else r'Nx\w+Pass'
        if not re.fullmatch(expected, record):
            failures.append(f'--{flag}: record {record} does not match '
                            f'{expected}')
        else:
            print(f'--{flag}: {record}')
    if failures:
        raise SystemExit('\n'.join(failures))
    print(f'{len(ours)} flags follow the naming scheme')


if __name__ == '__main__':
    main()
