#include "hw/array_params.h"

#include "config/derived.h"

#include <algorithm>

namespace by::hw {

int ArrayParams::bWidth() const {
  return std::max(hasWs ? outputWidth : 0, hasOs ? aWidth() : 0);
}

int ArrayParams::dWidth() const {
  return std::max(hasWs ? aWidth() : 0, hasOs ? outputWidth : 0);
}

int ArrayParams::regWidth() const {
  return std::max(hasWs ? aWidth() : 0, hasOs ? accWidth : 0);
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
  return p;
}

} // namespace by::hw
