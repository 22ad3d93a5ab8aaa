// Computes merged on their way through the reservation station (exec_merge.cpp): the merger
// between the decoder and the station, the splitter between the station and the execute
// controller.
#pragma once

#include "hw/generators.h"
#include "packed_layout.h"

namespace by::hw {

class ExecMergerGenerator {
public:
  explicit ExecMergerGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  void continuation(vlog::Body& b) const;
  AccelParams p_;
  PackedLayout ex_, merged_, range_;
};

class ExecSplitterGenerator {
public:
  explicit ExecSplitterGenerator(const AccelParams& p);
  vlog::Module build() const;

private:
  AccelParams p_;
  PackedLayout ex_, merged_;
};

} // namespace by::hw
