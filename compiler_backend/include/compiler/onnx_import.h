// ONNX import: an onnx::ModelProto (Debian's libonnx, opsets 11-17) into the graph IR.
//
// The model is checked with ONNX's shape inference, then imported node by node: float ops
// become layers (docs/compiler.md lists them), reshaping ops become aliases, constant shape
// computations are folded, and QDQ / QLinear* pre-quantized models keep their scales. Anything
// the compiler cannot map raises a CompileError naming the node, its op and what would make
// it work.
#pragma once

#include "compiler/graph.h"

#include <string>

namespace by::compiler {

struct ImportOptions {
  int batch = 0; // replaces the input's first dimension (also a symbolic one); 0: keep it
};

/// Reads and imports a model file. Throws CompileError for a file that is not a usable model.
Graph importOnnxFile(const std::string& path, const ImportOptions& options = {});
/// The same from the serialized bytes of a model (`path` locates the files of tensors stored as
/// external data, relative to its directory, and names the model in messages).
Graph importOnnxBytes(const std::string& bytes, const std::string& path,
                      const ImportOptions& options = {});
/// What identifies a model in caches: the hash of its bytes and of the external data files its
/// tensors name (read as they are; a file that is missing hashes as absent, and the import then
/// says so).
std::string modelContentHash(const std::string& bytes, const std::string& path);

} // namespace by::compiler
