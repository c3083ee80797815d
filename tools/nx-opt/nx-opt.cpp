//===- nx-opt.cpp - nx optimizer driver ------------------------------------===//
//
// mlir-opt with the nx dialect and passes, plus the upstream dialects and
// passes the nx pipelines build on.
//
//===----------------------------------------------------------------------===//

#include "nx/InitNx.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::nx::registerNxPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::nx::registerNxDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nx-mlir optimizer driver\n", registry));
}
