// The reference documentation committed in docs/ is what add_mlir_doc
// generates from the ODS files. After changing an op or pass description,
// refresh it with `ninja -C build nx-update-docs`.
// RUN: diff %nx_obj_root/docs/Dialects/NxOps.md %nx_src_root/docs/Dialects/NxOps.md
// RUN: diff %nx_obj_root/docs/Passes/NxPasses.md %nx_src_root/docs/Passes/NxPasses.md
// RUN: diff %nx_obj_root/docs/Passes/NxConversionPasses.md %nx_src_root/docs/Passes/NxConversionPasses.md
// RUN: diff %nx_obj_root/docs/Passes/NxTransformsPasses.md %nx_src_root/docs/Passes/NxTransformsPasses.md
// RUN: diff %nx_obj_root/docs/Passes/NxCodegenCPUPasses.md %nx_src_root/docs/Passes/NxCodegenCPUPasses.md
