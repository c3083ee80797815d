//===- Passes.td - nx dialect transforms -------------------*- tablegen -*-===//

#ifndef NX_DIALECT_NX_TRANSFORMS_PASSES_TD
#define NX_DIALECT_NX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NxAssignCallbackIds : Pass<"nx-assign-callback-ids", "::mlir::ModuleOp"> {
  let summary = "Assigns dense, deterministic integer ids to nx.callback symbols";
  let description = [{
    Gives every `nx.callback` directly inside the module an `id`: the
    callbacks sorted by symbol name are numbered 0, 1, 2, ... . The ids depend
    only on the set of callback names, so they are the same on every run and
    whatever passes ran before. The mapping is also recorded on the module as
    `nx.callback_ids`, a dictionary a host reads to bind names to ids.
    Running the pass twice changes nothing.

    Before:

    ```mlir
    module {
      nx.callback @zeta : (tensor<2xf32>) -> ()
      nx.callback @alpha : (tensor<f64>) -> tensor<f64>
    }
    ```

    After:

    ```mlir
    module attributes {nx.callback_ids = {alpha = 0 : i64, zeta = 1 : i64}} {
      nx.callback @zeta : (tensor<2xf32>) -> () attributes {id = 1 : i64}
      nx.callback @alpha : (tensor<f64>) -> tensor<f64> attributes {id = 0 : i64}
    }
    ```
  }];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

#endif // NX_DIALECT_NX_TRANSFORMS_PASSES_TD
