#include "hw/design.h"

#include "accelerator.h"
#include "boveda_loader.h"
#include "cmd_decoder.h"
#include "cmd_frontend.h"
#include "exec_merge.h"
#include "execute_controller.h"
#include "hw/generators.h"
#include "load_controller.h"
#include "loop_conv.h"
#include "loop_ws.h"
#include "op_layouts.h"
#include "reservation_station.h"
#include "store_controller.h"
#include "td_array.h"
#include "td_feeder.h"
#include "td_frontend.h"
#include "td_scheduler.h"
#include "td_tile_buffer.h"

namespace by::hw {

GeneratedDesign buildDesign(const config::Config& config) {
  GeneratedDesign out;
  out.array = arrayParams(config);
  vlog::Design& d = out.design;
  d.modules.push_back(DelayLineGenerator().build());
  d.modules.push_back(PeGenerator(out.array).build());
  d.modules.push_back(TileGenerator(out.array).build());
  d.modules.push_back(MeshGenerator(out.array).build());
  if (out.array.tensordash) {
    d.modules.push_back(TdSchedulerGenerator(out.array).build());
    d.modules.push_back(TdFrontendGenerator(out.array).build());
    d.modules.push_back(TdArrayGenerator(out.array).build());
  }
  d.modules.push_back(DmaReaderGenerator(dmaParams(config)).build());
  d.modules.push_back(DmaWriterGenerator(dmaParams(config).writer()).build());
  d.modules.push_back(AccScaleGenerator(config.types.accWidth).build());
  d.modules.push_back(SramGenerator().buildSinglePort());
  d.modules.push_back(SramGenerator().buildDualPort());
  d.modules.push_back(FifoGenerator().build());
  if (config.boveda.enabled) {
    const BovedaHwParams boveda = bovedaHwParams(config);
    d.modules.push_back(BovedaCompressorGenerator(boveda).build());
    d.modules.push_back(BovedaDecompressorGenerator(boveda).build());
  }
  if (accelUnsupportedReason(config).empty()) {
    const AccelParams accel = accelParams(config);
    d.modules.push_back(ScratchpadGenerator(accel).build());
    d.modules.push_back(AccumulatorGenerator(accel).build());
    d.modules.push_back(CmdFrontendGenerator(accel).build());
    if (config.loops.ws)
      d.modules.push_back(LoopWsGenerator(accel).build());
    if (config.loops.conv)
      d.modules.push_back(LoopConvGenerator(accel).build());
    d.modules.push_back(CmdDecoderGenerator(accel).build());
    d.modules.push_back(ReservationStationGenerator(accel).build());
    if (mergesComputes(accel)) {
      d.modules.push_back(ExecMergerGenerator(accel).build());
      d.modules.push_back(ExecSplitterGenerator(accel).build());
    }
    d.modules.push_back(LoadControllerGenerator(accel).build());
    if (config.boveda.enabled) {
      d.modules.push_back(ValueRepackerGenerator().build());
      d.modules.push_back(BovedaLoaderGenerator(accel, bovedaHwParams(config)).build());
    }
    d.modules.push_back(StoreControllerGenerator(accel).build());
    if (config.activations.table)
      d.modules.push_back(MvoutTableGenerator().build());
    if (config.tensordash.enabled) { // OS operands reach the array through the feeder
      d.modules.push_back(TdTileBufferGenerator(accel).build());
      d.modules.push_back(TdFeederGenerator(accel).build());
    } else {
      d.modules.push_back(TransposerGenerator(accel).build());
    }
    d.modules.push_back(ExecuteControllerGenerator(accel).build());
    d.modules.push_back(AcceleratorGenerator(accel).build());
  }
  // The accelerator is the top where the config supports it; otherwise the bare mesh.
  d.top = accelUnsupportedReason(config).empty() ? names::kAccelerator : names::kMesh;
  return out;
}

} // namespace by::hw
