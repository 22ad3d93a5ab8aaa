#include "validate.h"

#include "config/derived.h"

#include <algorithm>

namespace by::config {

namespace {
std::string str(long long v) {
  return std::to_string(v);
}
} // namespace

void validateAcrossKeys(const Config& c,
                        const std::function<void(const std::string&, const std::string&)>& fail) {
  const ArrayConfig& a = c.array;
  const long long rows = 1LL * a.meshRows * a.tileRows;
  const long long cols = 1LL * a.meshCols * a.tileCols;
  if (rows != cols)
    fail("array.mesh_cols", "mesh_rows*tile_rows = " + str(rows) + " but mesh_cols*tile_cols = " +
                                str(cols) + "; the array must be square (DIM x DIM)");
  if (rows > 256)
    fail("array.mesh_rows",
         "DIM = mesh_rows*tile_rows = " + str(rows) + " is too large; DIM may be at most 256");
  if (rows * a.lanes > 4096)
    fail("array.lanes", "DIM*lanes = " + str(rows * a.lanes) +
                            " exceeds 4096 multipliers per "
                            "array row");

  const TypesConfig& t = c.types;
  if (t.accWidth < 2 * t.inputWidth)
    fail("types.acc_width", "acc_width " + str(t.accWidth) +
                                " is narrower than a product of two "
                                "inputs; expected at least 2*input_width = " +
                                str(2 * t.inputWidth));
  if (t.spatialOutputWidth < t.inputWidth || t.spatialOutputWidth > t.accWidth)
    fail("types.spatial_output_width", "value " + str(t.spatialOutputWidth) +
                                           " must lie between input_width (" + str(t.inputWidth) +
                                           ") and acc_width (" + str(t.accWidth) + ")");

  const long long inBytes = t.inputWidth / 8;
  const long long accBytes = t.accWidth / 8;
  auto checkSram = [&](const SramConfig& m, const std::string& name, long long rowBytes) {
    const long long bytes = 1024LL * m.capacityKiB;
    const long long rowsTotal = bytes / rowBytes;
    if (rowsTotal < m.banks)
      fail("memory." + name + ".capacity_kib",
           str(m.capacityKiB) + " KiB holds " + str(rowsTotal) + " rows of " + str(rowBytes) +
               " bytes, fewer than the " + str(m.banks) + " banks; expected at least " +
               str((rowBytes * m.banks + 1023) / 1024) + " KiB");
    if (rowsTotal > (1LL << 28))
      fail("memory." + name + ".capacity_kib",
           str(rowsTotal) + " rows do not fit the 29-bit local address space (at most 2^28 rows)");
  };
  const long long spRowBytes = rows * a.lanes * inBytes; // DIM*lanes elem_t per row
  checkSram(c.memory.scratchpad, "scratchpad", spRowBytes);
  {
    const ScratchpadConfig& sp = c.memory.scratchpad;
    const long long bankRows = 1024LL * sp.capacityKiB / spRowBytes / sp.banks;
    if (sp.rowsPerWord > 1 && bankRows >= 1 && bankRows < sp.rowsPerWord)
      fail("memory.scratchpad.rows_per_word",
           "value " + str(sp.rowsPerWord) + " exceeds the " + str(bankRows) +
               " rows of a bank; expected at most " + str(bankRows) + ", or a larger capacity_kib");
  }
  checkSram(c.memory.accumulator, "accumulator", rows * accBytes);

  if (c.memory.accumulator.ports != 2)
    fail("memory.accumulator.ports", "value " + str(c.memory.accumulator.ports) +
                                         " is not supported; read-modify-write accumulation "
                                         "needs a read and a write port per bank: expected 2");
  if (c.dma.maxBytes < rows * accBytes)
    fail("dma.max_bytes", "value " + str(c.dma.maxBytes) +
                              " is smaller than one accumulator row; "
                              "expected at least DIM*acc_width/8 = " +
                              str(rows * accBytes));
  if (c.dma.maxBytes < spRowBytes)
    fail("dma.max_bytes", "value " + str(c.dma.maxBytes) +
                              " is smaller than one scratchpad row; "
                              "expected at least DIM*lanes*input_width/8 = " +
                              str(spRowBytes));
  if (c.dma.maxBytes < c.dma.busWidth / 8)
    fail("dma.max_bytes", "value " + str(c.dma.maxBytes) + " is smaller than one bus beat (" +
                              str(c.dma.busWidth / 8) + " bytes)");

  if (c.tensordash.enabled && c.array.lanes < 2)
    fail("sparsity.tensordash.enabled",
         "TensorDash moves operands between the lanes of vector PEs, and array.lanes is " +
             str(c.array.lanes) + "; expected false, or array.lanes >= 2");
  if (c.tensordash.enabled && c.array.dataflow == Dataflow::WS)
    fail("sparsity.tensordash.enabled",
         "TensorDash schedules the output-stationary dataflow, and array.dataflow is ws; "
         "expected false, or dataflow os or both");
  if (c.tensordash.enabled && rows % c.tensordash.rowsPerScheduler != 0)
    fail("sparsity.tensordash.rows_per_scheduler", "value " + str(c.tensordash.rowsPerScheduler) +
                                                       " does not divide DIM = " + str(rows) +
                                                       "; expected a divisor of DIM");
  if (c.tensordash.rowsPerScheduler > rows)
    fail("sparsity.tensordash.rows_per_scheduler",
         "value " + str(c.tensordash.rowsPerScheduler) + " exceeds DIM = " + str(rows));
  if (c.boveda.enabled) {
    // Widths 0..input_width are input_width+1 codes (docs/boveda.md, "Parameters").
    int needHeader = 0;
    while ((1 << needHeader) < t.inputWidth + 1)
      ++needHeader;
    if (c.boveda.headerBits < needHeader)
      fail("compression.boveda.header_bits",
           "a " + str(c.boveda.headerBits) + "-bit header cannot encode every group width 0.." +
               str(t.inputWidth) + " of " + str(t.inputWidth) +
               "-bit elements; expected at least " + str(needHeader));
  }
  if (c.boveda.onChip) {
    // On-chip form (docs/boveda.md): a container is a whole number of scratchpad rows (DIM*lanes
    // elements), and DECOMPRESS feeds the decompressor whole rows, so a row must hold at least
    // one of its stream words (min(bus_width, container_bits) bits).
    const long long rowBits = static_cast<long long>(rows) * a.lanes * t.inputWidth;
    const long long streamBits = std::min<long long>(c.dma.busWidth, c.boveda.containerBits);
    if (!c.boveda.enabled)
      fail("compression.boveda.on_chip",
           "compressed on-chip storage needs compression.boveda.enabled: true");
    else if (c.boveda.containerBits % rowBits != 0)
      fail("compression.boveda.container_bits",
           "on-chip form: a container of " + str(c.boveda.containerBits) +
               " bits is not a whole number of scratchpad rows (DIM*lanes*input_width = " +
               str(rowBits) + " bits); expected a multiple of " + str(rowBits));
    else if (rowBits < streamBits)
      fail("compression.boveda.on_chip",
           "a scratchpad row of " + str(rowBits) +
               " bits is narrower than the decompressor's stream word "
               "(min(dma.bus_width, container_bits) = " +
               str(streamBits) +
               " bits); expected false, or DIM*lanes*input_width >= " + str(streamBits));
  }
  if (c.boveda.groupSize > c.boveda.containerBits / t.inputWidth)
    fail("compression.boveda.group_size", "a group of " + str(c.boveda.groupSize) +
                                              " values does not fit one container of " +
                                              str(c.boveda.containerBits) + " bits");
  if (c.activations.table && c.types.inputWidth != 8)
    fail("activations.table", "the function table has an entry per int8 value, and "
                              "types.input_width is " +
                                  str(c.types.inputWidth) + "; expected 8");
  if (c.loops.ws && c.array.dataflow == Dataflow::OS)
    fail("loops.ws", "LOOP_WS unrolls a weight-stationary matmul, and array.dataflow is os; "
                     "expected false, or dataflow ws or both");
  else if (c.loops.ws && a.lanes != 1)
    fail("loops.ws", "LOOP_WS is not supported with vector PEs (array.lanes = " + str(a.lanes) +
                         "); expected false, or array.lanes: 1");
  if (c.soc.dram.sizeMiB * 1024LL * 1024LL < 2LL * 1024 * 1024)
    fail("soc.dram.size_mib", "at least 2 MiB are needed for program and data");
}

} // namespace by::config
