#include "funcmodel/params.h"

#include "config/derived.h"
#include "hwspec/isa.h"

#include <string>

namespace by::funcmodel {

ModelParams ModelParams::from(const config::Config& c) {
  const config::Derived d = config::derive(c);
  ModelParams p;
  p.dim = d.dim;
  p.lanes = c.array.lanes;
  p.spRowElems = d.spRowElems;
  p.inputWidth = c.types.inputWidth;
  p.accWidth = c.types.accWidth;
  p.outputWidth = c.types.spatialOutputWidth;
  p.inputBytes = d.inputBytes;
  p.accBytes = d.accBytes;
  p.spRows = d.spRows;
  p.accRows = d.accRows;
  p.maxBlockLen = d.maxBlockLen;
  p.maxBlockLenAcc = d.maxBlockLenAcc;
  p.maxColsAccElems = d.maxColsAccElems;
  p.dmaMaxBytes = static_cast<int>(c.dma.maxBytes);
  p.hasWs = c.array.dataflow != config::Dataflow::OS;
  p.hasOs = c.array.dataflow != config::Dataflow::WS;
  p.tensordash = c.tensordash.enabled;
  p.tdScheduleB = c.tensordash.enabled && c.tensordash.scheduleB;
  p.boveda = c.boveda.enabled;
  p.bovedaOnChip = c.boveda.enabled && c.boveda.onChip;
  p.loopWs = c.loops.ws;
  p.loopConv = c.loops.conv;
  p.table = c.activations.table;
  if (p.boveda) {
    p.bovedaFormat = boveda::paramsFromConfig(c.boveda, c.types.inputWidth, 1);
    p.bovedaPtrLineBytes = hw::isa::bovedaPtrLineBytes(c.dma.maxBytes);
  }
  return p;
}

} // namespace by::funcmodel
