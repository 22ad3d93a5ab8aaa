#include "hwspec/array_params.h"

#include "config/derived.h"
#include "tensordash_spec/params.h"

#include <algorithm>

namespace by::hw {

int ArrayParams::bWidth() const {
  return std::max(hasWs ? outputWidth : 0, hasOs ? tdDepth * lanes * inputWidth : 0);
}

int ArrayParams::dWidth() const {
  return std::max(hasWs ? lanes * inputWidth : 0, hasOs ? outputWidth : 0);
}

int ArrayParams::regWidth() const {
  return std::max(hasWs ? lanes * inputWidth : 0, hasOs ? accWidth : 0);
}

ArrayParams arrayParams(const config::Config& c) {
  const config::Derived d = config::derive(c);
  ArrayParams p;
  p.configName = c.name;
  p.meshRows = c.array.meshRows;
  p.meshCols = c.array.meshCols;
  p.tileRows = c.array.tileRows;
  p.tileCols = c.array.tileCols;
  p.dim = d.dim;
  p.lanes = c.array.lanes;
  p.inputWidth = c.types.inputWidth;
  p.accWidth = c.types.accWidth;
  p.outputWidth = c.types.spatialOutputWidth;
  p.shiftWidth = d.shiftBits;
  p.hasWs = c.array.dataflow != config::Dataflow::OS;
  p.hasOs = c.array.dataflow != config::Dataflow::WS;
  if (c.tensordash.enabled) {
    const tensordash::TensorDashParams td = tensordash::paramsFromConfig(c);
    p.tensordash = true;
    p.tdLookahead = td.lookahead;
    p.tdRowsPerScheduler = td.rowsPerScheduler;
    p.tdDepth = td.depth();
    p.tdCandidates = td.candidates();
    while ((1 << p.tdSelBits) <= p.tdCandidates) // candidates 0..n-1 and the idle code
      ++p.tdSelBits;
  }
  return p;
}

tensordash::TensorDashParams tensorDashParams(const ArrayParams& p) {
  tensordash::TensorDashParams td;
  td.lanes = p.lanes;
  td.lookahead = p.tdLookahead;
  td.pattern = tensordash::tPattern(p.tdLookahead);
  td.rows = p.dim;
  td.rowsPerScheduler = p.tdRowsPerScheduler;
  td.validate();
  return td;
}

} // namespace by::hw
