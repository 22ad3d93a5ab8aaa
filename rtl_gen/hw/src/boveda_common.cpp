#include "boveda_common.h"

#include <algorithm>

namespace by::hw {

BovedaHwParams bovedaHwParams(const config::Config& config) {
  BovedaHwParams p;
  p.configName = config.name;
  p.elementBits = config.types.inputWidth;
  p.groupSize = config.boveda.groupSize;
  p.headerBits = config.boveda.headerBits;
  p.containerBits = config.boveda.containerBits;
  p.zeroAware = config.boveda.zeroAware;
  p.streamWidth = std::min(config.dma.busWidth, config.boveda.containerBits);
  return p;
}

namespace boveda {

using vlog::Type;

void declareParams(vlog::Module& m, const BovedaHwParams& p) {
  m.param("ElemWidth", std::to_string(p.elementBits), "signed element width: 8 or 16");
  m.param("GroupSize", std::to_string(p.groupSize), "values per group (power of two)");
  m.param("HeaderBits", std::to_string(p.headerBits), "width field per group");
  m.param("ContainerBits", std::to_string(p.containerBits),
          "container: every block is padded to a multiple (power of two)");
  m.param("ZeroAware", p.zeroAware ? "1" : "0", "1: zero bitmap + non-zero values only");
  m.param("StreamWidth", std::to_string(p.streamWidth),
          "bits per stream word (power of two, at most ContainerBits)");
}

void declareGroupLocals(vlog::Body& b, int bufWords) {
  b.localParam("CountWidth", "$clog2(GroupSize+1)");
  b.localParam("WBits", "$clog2(ElemWidth+1)", "a group width 0..ElemWidth");
  b.localParam("BitmapBits", "ZeroAware != 0 ? GroupSize : 0");
  b.localParam("PayloadBits", "GroupSize*ElemWidth", "a full-width payload");
  b.localParam("MaxGroupBits", "HeaderBits + BitmapBits + PayloadBits",
               "the largest encoded group");
  b.localParam("GroupLenWidth", "$clog2(MaxGroupBits+1)");
  b.localParam("PosWidth", "$clog2(ContainerBits)", "a bit position inside a container");
  b.localParam("BufBits",
               "MaxGroupBits + " +
                   std::string(bufWords == 1 ? "" : std::to_string(bufWords) + "*") + "StreamWidth",
               bufWords == 1 ? "bit buffer: one group and one word"
                             : "bit buffer: one group and " + std::to_string(bufWords) + " words");
}

void rankLogic(vlog::Body& b, const std::string& bitmap, const std::string& rank,
               const std::string& ones) {
  b.logic(rank, Type::bits("GroupSize*CountWidth"), "field i: ones of the bitmap below bit i");
  b.logic(ones, Type::bits("CountWidth"), "ones of the bitmap");
  b.comb().line(ones + " = '0;").forLoop("i", "GroupSize", [&](vlog::Stmts& s) {
    s.line(rank + "[i*CountWidth +: CountWidth] = " + ones + ";");
    s.line(ones + " = " + ones + " + CountWidth'(" + bitmap + "[i]);");
  });
}

} // namespace boveda
} // namespace by::hw
