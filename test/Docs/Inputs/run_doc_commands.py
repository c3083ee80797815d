# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the commands the docs and the examples' headers show, against a build.

Markdown pages (README.md, docs/*.md):
- `<!-- runnable -->` on the line right before a ```sh block marks it as
  a command block to run;
- `<!-- file: /tmp/NAME -->` on the line right before any fenced block
  writes that block's text to /tmp/NAME before the page's runnable
  blocks run.

Sources (examples/): a header comment line whose text is just `Run:` is
followed by the command, indented deeper; it ends at the first line that is
not (a blank comment line, for instance).

Each page gets a fresh temporary directory. Every `/tmp` in its commands
and `file:` paths stands for a folder in it. The commands run with
`bash -euo pipefail`, in a directory where `build` is BUILD_DIR and every
other top-level entry of SRC_ROOT (examples, runtime, docs ...) is reachable
under its own name, with BUILD_DIR/bin first on PATH.

A command block may state what it prints: comment lines right after a
command that start with `# result` or `# outfeed` (nx-runner's and
nxrt-run's result lines) must each appear, without the `# `, in the block's
output (stdout and stderr).

Usage: run_doc_commands.py SRC_ROOT BUILD_DIR PATH...   (files or folders)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

RUNNABLE = re.compile(r'^<!--\s*runnable\s*-->\s*$')
FILE = re.compile(r'^<!--\s*file:\s*(/tmp/\S+)\s*-->\s*$')
FENCE = re.compile(r'^```(\S*)\s*$')
EXPECTED = re.compile(r'^#\s+((?:result|outfeed)\b.*)$')
TMP = re.compile(r'(?<![\w./-])/tmp(?![\w.-])')
# A header comment line: its prefix (` *`, `//`, `#`) and its text.
COMMENT = re.compile(r'^(\s*(?:\*|//|#))( *)(.*)$')
SOURCE_SUFFIXES = ('.c', '.h', '.cpp', '.mlir', '.py', '.sh', '.ex', '.exs')
TIMEOUT_S = 120


class Block:
    def __init__(self, page, line, text):
        self.page, self.line, self.text = page, line, text


def markdown_blocks(page, lines):
    """The runnable blocks and the file blocks of a Markdown page."""
    runnable, files = [], []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        end = start + 1
        while end < len(lines) and not lines[end].startswith('```'):
            end += 1
        text = '\n'.join(lines[start + 1:end]) + '\n'
        marker = lines[start - 1] if start > 0 else ''
        if RUNNABLE.match(marker):
            if m.group(1) != 'sh':
                raise SystemExit(f'{page}:{start + 1}: <!-- runnable --> '
                                 f'marks a ```{m.group(1)} block, not ```sh')
            runnable.append(Block(page, start + 1, text))
        elif (f := FILE.match(marker)):
            files.append((f.group(1), text))
        i = end + 1
    return runnable, files


def header_blocks(page, lines):
    """The `Run:` commands of a source file's comments."""
    blocks = []
    for i, line in enumerate(lines):
        m = COMMENT.match(line)
        if not m or m.group(3).strip() != 'Run:':
            continue
        indent = len(m.group(2))
        command, base = [], None
        for next_line in lines[i + 1:]:
            n = COMMENT.match(next_line)
            if (not n or n.group(1) != m.group(1) or not n.group(3)
                    or len(n.group(2)) <= indent):
                break
            base = len(n.group(2)) if base is None else base
            command.append(' ' * max(len(n.group(2)) - base, 0) + n.group(3))
        if not command:
            raise SystemExit(f'{page}:{i + 1}: `Run:` with no command after it')
        blocks.append(Block(page, i + 2, '\n'.join(command) + '\n'))
    return blocks


def expectations(text):
    """The output lines a block states, after a command line."""
    expected, after_command = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith('#'):
            m = EXPECTED.match(stripped)
            if m and after_command:
                expected.append(m.group(1))
            continue
        after_command = True
    return expected


def make_tree(src_root, build_dir, tmp):
    """A folder that looks like a built checkout: SRC_ROOT's entries, and
    `build` standing for BUILD_DIR."""
    tree = os.path.join(tmp, 'tree')
    os.mkdir(tree)
    for entry in os.listdir(src_root):
        if entry in ('build', '.git'):
            continue
        os.symlink(os.path.join(src_root, entry), os.path.join(tree, entry))
    os.symlink(build_dir, os.path.join(tree, 'build'))
    return tree


def run_page(src_root, build_dir, page, runnable, files):
    failures = 0
    tmp = tempfile.mkdtemp(prefix='nx-doc-commands-')
    try:
        tree = make_tree(src_root, build_dir, tmp)
        scratch = os.path.join(tmp, 'tmp')
        os.mkdir(scratch)
        for path, text in files:
            with open(TMP.sub(scratch, path, count=1), 'w') as f:
                f.write(text)
        env = dict(os.environ)
        env['PATH'] = os.path.join(build_dir, 'bin') + os.pathsep + env['PATH']
        env['PWD'] = tree
        for block in runnable:
            script = TMP.sub(scratch, block.text)
            where = f'{os.path.relpath(block.page, src_root)}:{block.line}'
            try:
                run = subprocess.run(['bash', '-euo', 'pipefail', '-c', script],
                                     cwd=tree, env=env, text=True,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     timeout=TIMEOUT_S)
                output, status = run.stdout, run.returncode
            except subprocess.TimeoutExpired as e:
                output = e.stdout or ''
                if isinstance(output, bytes):
                    output = output.decode(errors='replace')
                status = f'timed out after {TIMEOUT_S} s'
            missing = [line for line in expectations(block.text)
                       if line not in output]
            if status == 0 and not missing:
                print(f'PASS: {where}')
                continue
            failures += 1
            print(f'FAIL: {where}')
            if status != 0:
                print(f'  exit status: {status}')
            for line in missing:
                print(f'  expected in the output: {line}')
            print('  commands:')
            for line in block.text.splitlines():
                print(f'    {line}')
            print('  output:')
            for line in output.splitlines():
                print(f'    {line}')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failures


def pages(src_root, paths):
    for path in paths:
        path = os.path.join(src_root, path)
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith('.md') or name.endswith(SOURCE_SUFFIXES):
                        yield os.path.join(root, name)
        else:
            yield path


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    src_root = os.path.abspath(sys.argv[1])
    build_dir = os.path.abspath(sys.argv[2])
    failures = blocks = 0
    for page in pages(src_root, sys.argv[3:]):
        with open(page, encoding='utf-8') as f:
            lines = f.read().splitlines()
        if page.endswith('.md'):
            runnable, files = markdown_blocks(page, lines)
        else:
            runnable, files = header_blocks(page, lines), []
        if runnable:
            blocks += len(runnable)
            failures += run_page(src_root, build_dir, page, runnable, files)
    print(f'{blocks} command block(s) run, {failures} failed')
    if blocks == 0:
        print('no runnable command block found')
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
