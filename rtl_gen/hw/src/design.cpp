#include "hw/design.h"

#include "hw/generators.h"

namespace by::hw {

GeneratedDesign buildDesign(const config::Config& config) {
  GeneratedDesign out;
  out.array = arrayParams(config);
  vlog::Design& d = out.design;
  d.modules.push_back(DelayLineGenerator().build());
  d.modules.push_back(PeGenerator(out.array).build());
  d.modules.push_back(TileGenerator(out.array).build());
  d.modules.push_back(MeshGenerator(out.array).build());
  d.modules.push_back(DmaReaderGenerator(dmaParams(config)).build());
  d.modules.push_back(DmaWriterGenerator(dmaParams(config)).build());
  d.top = names::kMesh;
  return out;
}

} // namespace by::hw
