// Block generators. Each is built from typed parameters and produces one module with build().
// All of them are listed in one place, buildDesign() in design.cpp.
#pragma once

#include "hw/array_params.h"
#include "vlog/ir.h"

namespace by::hw {

/// Module names, one place, so that instantiating generators and tests agree.
namespace names {
inline constexpr const char* kDelayLine = "by_delay_line";
inline constexpr const char* kPe = "by_pe";
inline constexpr const char* kTile = "by_tile";
inline constexpr const char* kMesh = "by_mesh";
} // namespace names

/// A reset-to-zero shift register of Width bits and Depth stages (Depth 0 is a wire).
class DelayLineGenerator {
public:
  vlog::Module build() const;
};

/// One processing element: `lanes` MACs reducing into one sum, two stationary registers
/// (Gemmini's double-buffered preload/propagate scheme), WS and/or OS datapaths.
class PeGenerator {
public:
  explicit PeGenerator(const ArrayParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

/// A combinational grid of tile_rows x tile_cols PEs.
class TileGenerator {
public:
  explicit TileGenerator(const ArrayParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

/// The mesh: mesh_rows x mesh_cols tiles with pipeline registers between them, input skew and
/// output de-skew, so that its ports see whole aligned row beats.
class MeshGenerator {
public:
  explicit MeshGenerator(const ArrayParams& params) : p_(params) {}
  vlog::Module build() const;

private:
  ArrayParams p_;
};

} // namespace by::hw
