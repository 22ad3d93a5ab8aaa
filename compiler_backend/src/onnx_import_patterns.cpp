// Ops that exporters write as chains of primitive nodes, put back together before import:
//
// - layer normalization, as torch exports nn.LayerNorm below opset 17:
//     m = ReduceMean(x, axes [-1]); d = Sub(x, m); v = ReduceMean(Pow(d, 2), axes [-1]);
//     n = Div(d, Sqrt(Add(v, epsilon))); [y = Mul(n, gain)]; [z = Add(y, bias)]
//   becomes LayerNormalization(x, gain, bias) (axis -1, epsilon), the opset-17 op;
// - the exact GELU, as torch exports nn.GELU():
//     Mul(Mul(x, Add(Erf(Div(x, sqrt(2))), 1)), 0.5)   (or Mul(x, 1/sqrt(2)), or the 0.5 first)
//   becomes Gelu(x), the opset-20 op.
//
// A chain is fused only when each intermediate value feeds the chain alone and is no graph
// output, so the fused node computes exactly what the nodes did. The fused node takes the
// place of the chain's last node (all its inputs exist there); the importer then reads
// LayerNormalization and Gelu like any other op.
#include "onnx_importer.h"

#include <cmath>
#include <optional>
#include <set>

namespace by::compiler::importer {

namespace {

class ChainFuser {
public:
  explicit ChainFuser(onnx::GraphProto& g) : g_(g) {
    for (const auto& init : g.initializer())
      inits_[init.name()] = &init;
    for (int i = 0; i < g.node_size(); ++i) {
      const auto& n = g.node(i);
      for (const auto& o : n.output())
        producer_[o] = i;
      for (const auto& in : n.input())
        consumers_[in].push_back(i);
    }
    for (const auto& o : g.output())
      graphOutputs_.insert(o.name());
  }

  void run(const std::map<std::string, std::vector<int64_t>>& shapes) {
    shapes_ = &shapes;
    for (int i = 0; i < g_.node_size(); ++i) {
      if (taken(i))
        continue;
      if (g_.node(i).op_type() == "ReduceMean")
        fuseLayerNorm(i);
      else if (g_.node(i).op_type() == "Erf")
        fuseGelu(i);
    }
    if (removed_.empty())
      return;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int i = 0; i < g_.node_size(); ++i) {
      if (replacement_.count(i))
        *kept.Add() = replacement_[i];
      else if (!removed_.count(i))
        *kept.Add() = g_.node(i);
    }
    g_.mutable_node()->Swap(&kept);
  }

private:
  onnx::GraphProto& g_;
  std::map<std::string, const onnx::TensorProto*> inits_;
  std::map<std::string, int> producer_;
  std::map<std::string, std::vector<int>> consumers_;
  std::set<std::string> graphOutputs_;
  const std::map<std::string, std::vector<int64_t>>* shapes_ = nullptr;
  std::set<int> removed_;
  std::map<int, onnx::NodeProto> replacement_;

  const onnx::NodeProto& node(int i) const { return g_.node(i); }
  /// Part of a chain fused already.
  bool taken(int i) const { return removed_.count(i) || replacement_.count(i); }

  /// The one node reading `value` if it has op `op` and the value is no graph output; else -1.
  int soleConsumer(const std::string& value, const std::string& op) const {
    auto it = consumers_.find(value);
    if (it == consumers_.end() || it->second.size() != 1 || graphOutputs_.count(value))
      return -1;
    const int c = it->second[0];
    return node(c).op_type() == op && !taken(c) ? c : -1;
  }

  /// The value an Identity chain passes on (exporters share weights through them).
  std::string throughIdentity(std::string name) const {
    for (auto p = producer_.find(name);
         p != producer_.end() && node(p->second).op_type() == "Identity"; p = producer_.find(name))
      name = node(p->second).input(0);
    return name;
  }

  /// The single number of a constant value (initializer or Constant node), if it is one.
  std::optional<double> scalar(const std::string& value) const {
    const std::string name = throughIdentity(value);
    try {
      onnxio::Const c;
      if (auto it = inits_.find(name); it != inits_.end()) {
        c = onnxio::readTensor(*it->second);
      } else if (auto p = producer_.find(name);
                 p != producer_.end() && node(p->second).op_type() == "Constant") {
        const onnx::NodeProto& n = node(p->second);
        if (const auto* a = onnxio::findAttr(n, "value"))
          c = onnxio::readTensor(a->t());
        else if (const auto* f = onnxio::findAttr(n, "value_float"))
          c.values = {f->f()};
      }
      if (c.values.size() == 1)
        return c.values[0];
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }
  bool isScalar(const std::string& name, double v, double tolerance = 0) const {
    const auto s = scalar(name);
    return s && std::abs(*s - v) <= tolerance;
  }
  /// The input of binary node `n` that is not `value` (`value` must be one of them).
  static std::optional<std::string> other(const onnx::NodeProto& n, const std::string& value) {
    if (n.input_size() != 2)
      return std::nullopt;
    if (n.input(0) == value)
      return n.input(1);
    if (n.input(1) == value)
      return n.input(0);
    return std::nullopt;
  }

  /// A ReduceMean over the last axis, keeping it.
  bool meanOverLastAxis(const onnx::NodeProto& n) const {
    if (onnxio::attrInt(n, "keepdims", 1) != 1 || n.input_size() != 1)
      return false;
    const auto axes = onnxio::attrInts(n, "axes", {});
    if (axes.size() != 1)
      return false;
    if (axes[0] == -1)
      return true;
    auto s = shapes_->find(n.input(0));
    return s != shapes_->end() && axes[0] == int64_t(s->second.size()) - 1;
  }

  void fuseLayerNorm(int meanNode) {
    const onnx::NodeProto& mean = node(meanNode);
    if (!meanOverLastAxis(mean))
      return;
    const std::string x = mean.input(0);
    const int sub = soleConsumer(mean.output(0), "Sub");
    if (sub < 0 || node(sub).input(0) != x || node(sub).input(1) != mean.output(0))
      return;
    const std::string d = node(sub).output(0);
    auto dUsers = consumers_.find(d);
    if (dUsers == consumers_.end() || dUsers->second.size() != 2 || graphOutputs_.count(d))
      return;
    int pow = -1, div = -1;
    for (int u : dUsers->second) {
      if (node(u).op_type() == "Pow" && node(u).input(0) == d)
        pow = u;
      else if (node(u).op_type() == "Div" && node(u).input(0) == d)
        div = u;
    }
    if (pow < 0 || div < 0 || !isScalar(node(pow).input(1), 2.0))
      return;
    const int var = soleConsumer(node(pow).output(0), "ReduceMean");
    if (var < 0 || !meanOverLastAxis(node(var)))
      return;
    const int addEps = soleConsumer(node(var).output(0), "Add");
    if (addEps < 0)
      return;
    const auto epsName = other(node(addEps), node(var).output(0));
    const auto eps = epsName ? scalar(*epsName) : std::nullopt;
    if (!eps || !(*eps >= 0))
      return;
    const int sqrt = soleConsumer(node(addEps).output(0), "Sqrt");
    if (sqrt < 0 || node(div).input(1) != node(sqrt).output(0) ||
        soleConsumer(node(sqrt).output(0), "Div") != div)
      return;
    std::vector<int> chain = {meanNode, sub, pow, var, addEps, sqrt, div};
    std::string out = node(div).output(0), gain, bias;
    // The optional gain (Mul by a constant), then the bias (Add of one).
    auto takeConstant = [&](const char* op, std::string& operand) {
      const int n = soleConsumer(out, op);
      const auto c = n >= 0 ? other(node(n), out) : std::nullopt;
      if (!c || !isConstant(*c))
        return false;
      operand = *c;
      out = node(n).output(0);
      chain.push_back(n);
      return true;
    };
    if (takeConstant("Mul", gain))
      takeConstant("Add", bias);
    onnx::NodeProto ln;
    ln.set_op_type("LayerNormalization");
    ln.set_name(mean.name().empty() ? out : mean.name());
    ln.add_input(x);
    ln.add_input(gain); // "" : a gain of one (the importer reads a missing input so)
    ln.add_input(bias);
    ln.add_output(out);
    auto* axis = ln.add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(-1);
    auto* epsilon = ln.add_attribute();
    epsilon->set_name("epsilon");
    epsilon->set_type(onnx::AttributeProto::FLOAT);
    epsilon->set_f(float(*eps));
    replace(chain, std::move(ln));
  }

  bool isConstant(const std::string& value) const {
    const std::string name = throughIdentity(value);
    if (inits_.count(name))
      return true;
    auto p = producer_.find(name);
    return p != producer_.end() && node(p->second).op_type() == "Constant";
  }

  void fuseGelu(int erfNode) {
    const onnx::NodeProto& erf = node(erfNode);
    auto p = producer_.find(erf.input(0));
    if (p == producer_.end() || taken(p->second))
      return;
    const onnx::NodeProto& scaleNode = node(p->second);
    const double root2 = std::sqrt(2.0);
    std::string x;
    if (scaleNode.op_type() == "Div" && isScalar(scaleNode.input(1), root2, 1e-6)) {
      x = scaleNode.input(0);
    } else if (scaleNode.op_type() == "Mul") {
      for (int k = 0; k < 2 && x.empty(); ++k)
        if (isScalar(scaleNode.input(1 - k), 1.0 / root2, 1e-6))
          x = scaleNode.input(k);
    }
    if (x.empty() || soleConsumer(scaleNode.output(0), "Erf") != erfNode)
      return;
    const int plusOne = soleConsumer(erf.output(0), "Add");
    if (plusOne < 0)
      return;
    const auto one = other(node(plusOne), erf.output(0));
    if (!one || !isScalar(*one, 1.0))
      return;
    const std::string c = node(plusOne).output(0);
    const int mulC = soleConsumer(c, "Mul");
    if (mulC < 0)
      return;
    const auto cOther = other(node(mulC), c);
    if (!cOther)
      return;
    std::vector<int> chain = {p->second, erfNode, plusOne, mulC};
    std::string out = node(mulC).output(0);
    if (*cOther == x) { // x * c, then * 0.5
      const int half = soleConsumer(out, "Mul");
      const auto h = half >= 0 ? other(node(half), out) : std::nullopt;
      if (!h || !isScalar(*h, 0.5))
        return;
      chain.push_back(half);
      out = node(half).output(0);
    } else { // (x * 0.5) * c: the half must read x and feed this product alone
      auto hp = producer_.find(*cOther);
      if (hp == producer_.end() || taken(hp->second) || node(hp->second).op_type() != "Mul" ||
          soleConsumer(*cOther, "Mul") != mulC)
        return;
      const auto h = other(node(hp->second), x);
      if (!h || !isScalar(*h, 0.5))
        return;
      chain.push_back(hp->second);
    }
    onnx::NodeProto gelu;
    gelu.set_op_type("Gelu");
    gelu.set_name(scaleNode.name().empty() ? erf.output(0) : scaleNode.name());
    gelu.add_input(x);
    gelu.add_output(out);
    replace(chain, std::move(gelu));
  }

  /// The chain's nodes go; `fused` takes the place of the last of them.
  void replace(const std::vector<int>& chain, onnx::NodeProto fused) {
    int last = chain[0];
    for (int i : chain)
      last = std::max(last, i);
    for (int i : chain)
      removed_.insert(i);
    removed_.erase(last);
    replacement_[last] = std::move(fused);
  }
};

} // namespace

void fuseDecomposedOps(onnx::ModelProto& model,
                       const std::map<std::string, std::vector<int64_t>>& shapes) {
  ChainFuser(*model.mutable_graph()).run(shapes);
}

} // namespace by::compiler::importer
