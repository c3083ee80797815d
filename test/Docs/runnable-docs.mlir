// The commands the docs show still run: every ```sh block marked
// `<!-- runnable -->` in README.md and docs/, and every `Run:` command in
// the headers of examples/, against this build (see docs/Reliability.md,
// "How the tests are organised"). They are written for the default build:
// upstream mlir-opt cannot load an instrumented plugin (docs/Tools.md).
// UNSUPPORTED: sanitizer
// RUN: %python %S/Inputs/run_doc_commands.py %nx_src_root %nx_obj_root \
// RUN:   README.md docs examples
