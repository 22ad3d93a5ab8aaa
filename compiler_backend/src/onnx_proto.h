// Small helpers over the ONNX protobuf classes: constant tensors as numbers, attributes with
// defaults, shapes of graph values. Internal to the importer.
#pragma once

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace by::compiler::onnxio {

/// A constant tensor (initializer, Constant node, folded shape computation) as doubles.
struct Const {
  std::vector<int64_t> dims;
  std::vector<double> values;
  int dataType = 0; // onnx::TensorProto_DataType
  /// Set when the values are DequantizeLinear(int8 q, scale): every value is q * qscale
  /// exactly (per-tensor scale, zero point 0).
  double qscale = 0;
  int64_t numel() const;
  bool isInteger() const;
};

/// The numbers of a TensorProto (float, double, int8/16/32/64, uint8/16, bool; raw_data or the
/// typed fields). Throws std::runtime_error with a reason for other types or a size mismatch.
Const readTensor(const onnx::TensorProto& t);

/// Reads the initializers whose data lies in external files (ONNX's external data, as models over
/// 2 GiB are saved: `location` relative to the model's directory `dir`, `offset`, `length`) into
/// their raw_data, so that the checker and the importer see one self-contained model. Throws
/// std::runtime_error naming the tensor and the file it cannot read.
void inlineExternalData(onnx::ModelProto& model, const std::string& dir);

/// Attribute access with the ONNX defaults filled in by the caller.
const onnx::AttributeProto* findAttr(const onnx::NodeProto& n, const std::string& name);
int64_t attrInt(const onnx::NodeProto& n, const std::string& name, int64_t dflt);
float attrFloat(const onnx::NodeProto& n, const std::string& name, float dflt);
std::string attrString(const onnx::NodeProto& n, const std::string& name, const std::string& dflt);
std::vector<int64_t> attrInts(const onnx::NodeProto& n, const std::string& name,
                              const std::vector<int64_t>& dflt);

/// A value's static shape from a ValueInfoProto; false if it has none or a symbolic dim
/// (`symbolic` then names the first one).
bool staticShape(const onnx::ValueInfoProto& v, std::vector<int64_t>& dims,
                 std::string* symbolic = nullptr);

std::string dimsString(const std::vector<int64_t>& dims); // "[1, 3, 224, 224]"

} // namespace by::compiler::onnxio
