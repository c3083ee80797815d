// The project stands on its own: its docs, headers and sources refer to
// docs/Design.md, never to design documents outside the repository.
// RUN: not grep -rnE "shared/DESIGN|seeds?[ -][0-9]{3}|\(seeds? [0-9]" \
// RUN:   %nx_src_root/README.md %nx_src_root/docs %nx_src_root/include \
// RUN:   %nx_src_root/lib %nx_src_root/tools %nx_src_root/examples \
// RUN:   %nx_src_root/runtime
// RUN: test -f %nx_src_root/docs/Design.md
