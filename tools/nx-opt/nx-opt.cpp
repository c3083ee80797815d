//===- nx-opt.cpp - nx optimizer driver
//------------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the nx dialect and passes, plus the upstream dialects and
// passes the nx pipelines build on.
//
//===----------------------------------------------------------------------===//

#include "nx/InitNx.h"
#include "nx/Support/PassStatistics.h"
#include "nxhost/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerAllPasses();
  mlir::nx::registerNxPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::nx::registerNxDialects(registry);

  // --version: ours first, then LLVM's, whose MLIR the passes come from.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    nxhost::printToolVersion(os, "nx-opt", std::nullopt, /*aotAbi=*/false);
  });

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "nx-mlir optimizer driver\n", registry);

  // This LLVM may keep no pass statistics (see PassStatistics.h): then
  // --mlir-pass-statistics prints nx's own report instead of upstream's
  // empty one.
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (mlir::nx::takeOverPassStatisticsOption()) {
    config.setPassPipelineSetupFn(
        [setup = config](mlir::PassManager &pm) -> mlir::LogicalResult {
          if (mlir::failed(setup.setupPassPipeline(pm)))
            return mlir::failure();
          mlir::nx::enablePassStatistics(pm);
          return mlir::success();
        });
  }

  // What MlirOptMain(argc, argv, ...) does after parsing, with our config.
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
