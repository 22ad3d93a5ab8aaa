#include "config/schema.h"

#include "support/hash.h"

#include <algorithm>
#include <functional>
#include <sstream>

namespace by::config {

const char* toString(Dataflow df) {
  switch (df) {
  case Dataflow::WS:
    return "ws";
  case Dataflow::OS:
    return "os";
  case Dataflow::Both:
    return "both";
  }
  return "?";
}

namespace {

// Small constructors so that the table below reads as one line of facts per key.
FieldSpec intField(std::string key, int& (*ref)(Config&), std::optional<std::string> def,
                   int64_t min, int64_t max, bool pow2, std::string doc) {
  FieldSpec f;
  f.key = std::move(key);
  f.kind = Kind::Int;
  f.intRef = ref;
  f.defaultValue = std::move(def);
  f.min = min;
  f.max = max;
  f.powerOfTwo = pow2;
  f.doc = std::move(doc);
  return f;
}

FieldSpec boolField(std::string key, bool& (*ref)(Config&), std::string def, std::string doc) {
  FieldSpec f;
  f.key = std::move(key);
  f.kind = Kind::Bool;
  f.boolRef = ref;
  f.defaultValue = std::move(def);
  f.doc = std::move(doc);
  return f;
}

const std::optional<std::string> kRequired = std::nullopt;

void addNameField(std::vector<FieldSpec>& f) {
  FieldSpec name;
  name.key = "name";
  name.kind = Kind::String;
  name.stringRef = [](Config& c) -> std::string& { return c.name; };
  name.doc = "Configuration name: letters, digits, '_' and '-', 1 to 40 characters. "
             "Appears in generated file headers and reports.";
  f.push_back(name);
}

void addArrayFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "array.mesh_rows", [](Config& c) -> int& { return c.array.meshRows; }, kRequired, 1, 256,
      true, "Tile rows in the mesh; pipeline registers sit between tiles."));
  f.push_back(intField(
      "array.mesh_cols", [](Config& c) -> int& { return c.array.meshCols; }, kRequired, 1, 256,
      true, "Tile columns in the mesh."));
  f.push_back(intField(
      "array.tile_rows", [](Config& c) -> int& { return c.array.tileRows; }, kRequired, 1, 256,
      true, "PE rows in one tile (a tile is a combinational grid of PEs)."));
  f.push_back(intField(
      "array.tile_cols", [](Config& c) -> int& { return c.array.tileCols; }, kRequired, 1, 256,
      true, "PE columns in one tile. DIM = mesh_rows*tile_rows must equal mesh_cols*tile_cols."));
  f.push_back(intField(
      "array.lanes", [](Config& c) -> int& { return c.array.lanes; }, "1", 1, 64, true,
      "MACs per PE reducing into one sum (a dot product of `lanes` reduction-dimension "
      "elements per cycle). 1 is the classic Gemmini PE; with more, a scratchpad row holds "
      "DIM*lanes elements and B is lane-packed (docs/isa.md, \"Vector PEs\")."));
  {
    FieldSpec df;
    df.key = "array.dataflow";
    df.kind = Kind::Enum;
    df.choices = {"ws", "os", "both"}; // order of enum Dataflow
    df.setEnum = [](Config& c, int i) { c.array.dataflow = static_cast<Dataflow>(i); };
    df.getEnum = [](const Config& c) { return static_cast<int>(c.array.dataflow); };
    df.doc = "Dataflows the hardware supports: weight-stationary, output-stationary, or both "
             "(selected at run time by CONFIG_EX).";
    f.push_back(df);
  }
}

void addTypesFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "types.input_width", [](Config& c) -> int& { return c.types.inputWidth; }, kRequired, 8, 16,
      true, "Bits of an input element (elem_t), signed."));
  f.push_back(intField(
      "types.acc_width", [](Config& c) -> int& { return c.types.accWidth; }, kRequired, 16, 64,
      true, "Bits of an accumulator element (acc_t), signed; at least 2*input_width."));
  f.push_back(intField(
      "types.spatial_output_width", [](Config& c) -> int& { return c.types.spatialOutputWidth; },
      kRequired, 8, 64, false,
      "Bits of partial sums / results leaving the array (Gemmini's spatialArrayOutputType). "
      "WS partial sums wrap at this width; OS results saturate to it. Between input_width "
      "and acc_width."));
}

void addMemoryFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "memory.scratchpad.capacity_kib",
      [](Config& c) -> int& { return c.memory.scratchpad.capacityKiB; }, kRequired, 1, 65536, true,
      "Scratchpad capacity in KiB (rows of DIM input elements)."));
  f.push_back(intField(
      "memory.scratchpad.banks", [](Config& c) -> int& { return c.memory.scratchpad.banks; },
      kRequired, 1, 64, true, "Scratchpad banks (independent SRAMs)."));
  f.push_back(intField(
      "memory.scratchpad.ports", [](Config& c) -> int& { return c.memory.scratchpad.ports; }, "1",
      1, 2, false,
      "SRAM ports per bank: 1 (one read or write per cycle) or 2 (one read "
      "and one write per cycle)."));
  f.push_back(intField(
      "memory.scratchpad.rows_per_word",
      [](Config& c) -> int& { return c.memory.scratchpad.rowsPerWord; }, "1", 1, 16, true,
      "Consecutive rows in one SRAM word of a bank: a read returns them all, a write stores one "
      "row (masked). Only the TensorDash operand feeder uses the whole word, to read several "
      "reduction steps per cycle (docs/tensordash.md, \"Operand feeder\"); other clients "
      "still move one row per access."));
  f.push_back(intField(
      "memory.accumulator.capacity_kib",
      [](Config& c) -> int& { return c.memory.accumulator.capacityKiB; }, kRequired, 1, 65536, true,
      "Accumulator capacity in KiB (rows of DIM accumulator elements)."));
  f.push_back(intField(
      "memory.accumulator.banks", [](Config& c) -> int& { return c.memory.accumulator.banks; },
      kRequired, 1, 64, true, "Accumulator banks."));
  f.push_back(intField(
      "memory.accumulator.ports", [](Config& c) -> int& { return c.memory.accumulator.ports; }, "2",
      1, 2, false,
      "SRAM ports per accumulator bank; read-modify-write accumulation at full rate needs 2."));
}

void addDmaFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "dma.bus_width", [](Config& c) -> int& { return c.dma.busWidth; }, "128", 32, 1024, true,
      "AXI4 master data width in bits."));
  f.push_back(intField(
      "dma.max_inflight", [](Config& c) -> int& { return c.dma.maxInflight; }, "8", 1, 64, true,
      "Outstanding AXI4 transactions (distinct IDs) per direction; writes: see "
      "dma.max_inflight_writes."));
  f.push_back(intField(
      "dma.max_inflight_writes", [](Config& c) -> int& { return c.dma.maxInflightWrites; }, "0", 0,
      64, true,
      "Outstanding AXI4 writes (distinct write IDs), where they should differ from "
      "dma.max_inflight (0: as dma.max_inflight). A write slot is a few registers, a read slot "
      "buffers its response: short writes, e.g. 16-byte output rows, are bound by the DRAM "
      "latency over this count (docs/BENCHMARKS.md)."));
  f.push_back(intField(
      "dma.max_burst", [](Config& c) -> int& { return c.dma.maxBurst; }, "16", 1, 256, true,
      "Maximum beats per AXI4 INCR burst."));
  f.push_back(intField(
      "dma.max_bytes", [](Config& c) -> int& { return c.dma.maxBytes; }, "64", 16, 4096, true,
      "Bytes per DMA row request (Gemmini's dma_maxbytes); bounds MAX_BLOCK_LEN. At least one "
      "accumulator row (DIM*acc_width/8)."));
}

void addTensorDashFields(std::vector<FieldSpec>& f) {
  f.push_back(boolField(
      "sparsity.tensordash.enabled", [](Config& c) -> bool& { return c.tensordash.enabled; },
      "false",
      "Generate the TensorDash sparse operand interconnect, scheduler and operand feeder: "
      "output-stationary computes skip zero operands, bit-exact (needs lanes > 1 and the OS "
      "dataflow; CONFIG_EX td_off / td_side control it at run time; "
      "memory.scratchpad.rows_per_word of 2 or more lets the feeder bring several steps per "
      "cycle)."));
  f.push_back(intField(
      "sparsity.tensordash.lookahead", [](Config& c) -> int& { return c.tensordash.lookahead; },
      "2", 1, 2, false, "Steps ahead the staging window looks (window depth = lookahead + 1)."));
  f.push_back(intField(
      "sparsity.tensordash.rows_per_scheduler",
      [](Config& c) -> int& { return c.tensordash.rowsPerScheduler; }, "1", 1, 256, true,
      "PE rows that share one scheduler and advance in lockstep."));
  f.push_back(boolField(
      "sparsity.tensordash.schedule_b", [](Config& c) -> bool& { return c.tensordash.scheduleB; },
      "true",
      "CONFIG_EX td_side = 1 schedules B instead of A (the array then holds C transposed: a D "
      "and a C transposer in the execute controller, docs/tensordash.md \"Scheduling B\"). "
      "false leaves them out (td_side = 1 is then UNSUPPORTED): less area, and only A's zeros "
      "are skipped."));
}

void addBovedaFields(std::vector<FieldSpec>& f) {
  f.push_back(boolField(
      "compression.boveda.enabled", [](Config& c) -> bool& { return c.boveda.enabled; }, "false",
      "Generate the Boveda compressor/decompressor on the DMA path: compressed MVIN/MVOUT "
      "(docs/isa.md), with one-lane or vector PEs (a compressed move's column blocks are one "
      "local row wide, as a plain move's). header_bits must encode every width 0..input_width. "
      "The compiler compresses weights with one-lane PEs only (docs/boveda.md)."));
  f.push_back(intField(
      "compression.boveda.group_size", [](Config& c) -> int& { return c.boveda.groupSize; }, "16",
      2, 64, true, "Values per group; each group is stored at the width of its largest value."));
  f.push_back(intField(
      "compression.boveda.header_bits", [](Config& c) -> int& { return c.boveda.headerBits; }, "4",
      2, 6, false, "Bits of the per-group width header."));
  f.push_back(intField(
      "compression.boveda.container_bits", [](Config& c) -> int& { return c.boveda.containerBits; },
      "512", 64, 4096, true,
      "Size of a container (\"brick\") that groups are packed into; blocks start aligned."));
  f.push_back(boolField(
      "compression.boveda.zero_aware", [](Config& c) -> bool& { return c.boveda.zeroAware; },
      "false", "Store a zero bitmap per group and only the non-zero values."));
  f.push_back(boolField(
      "compression.boveda.on_chip", [](Config& c) -> bool& { return c.boveda.onChip; }, "false",
      "Keep Boveda blocks compressed in the scratchpad (a plain MVIN copies their containers, "
      "DECOMPRESS decodes one into raw rows): the scratchpad holds more than its raw size. "
      "Needs enabled, container_bits a multiple of DIM*input_width and DIM*input_width >= "
      "min(dma.bus_width, container_bits) (docs/boveda.md, \"On-chip form\")."));
}

void addLoopsFields(std::vector<FieldSpec>& f) {
  f.push_back(boolField(
      "loops.ws", [](Config& c) -> bool& { return c.loops.ws; }, "false",
      "Generate the LOOP_WS unroller (Gemmini's funct 8, configured by functs 9-13): one "
      "command describes a whole weight-stationary tiled matmul, which the accelerator unrolls "
      "into mvin/preload/compute/mvout commands over halves of the scratchpad and accumulator "
      "(docs/isa.md, \"LOOP_WS\"). Without it those functs are UNKNOWN_FUNCT. Needs the WS "
      "dataflow (array.dataflow ws or both) and array.lanes: 1."));
  f.push_back(boolField(
      "loops.conv", [](Config& c) -> bool& { return c.loops.conv; }, "false",
      "Generate the convolution loop unroller: Gemmini's LOOP_CONV_WS (funct 15, configured by "
      "functs 16-21) and Brickyard's LOOP_CONV_OS (funct 33, the same tile output-stationary, "
      "where TensorDash skips zero products). One command describes a whole convolution tile "
      "(batches, output rows and columns, kernel, input and output channels, padding, stride, "
      "bias, pooling on store), which the accelerator unrolls into mvin/preload/compute/mvout "
      "commands over halves of the scratchpad and accumulator (docs/isa.md, \"LOOP_CONV_WS\", "
      "\"LOOP_CONV_OS\"). Without it those functs are UNKNOWN_FUNCT. Each loop needs its "
      "dataflow configured; vector PEs take lane-packed weights (docs/isa.md, \"Vector PEs\")."));
}

void addCommandsFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "commands.reservation_station_entries",
      [](Config& c) -> int& { return c.commands.reservationStationEntries; }, "16", 4, 64, true,
      "Operations the reservation station holds (loads, executes and stores together, as the "
      "decoder issues them): how far the loop unrollers and the host run ahead of the array, so "
      "that a tile's or a loop's loads overlap the computes before it. Gemmini has 8 + 16 + 4 "
      "in three queues (docs/BENCHMARKS.md, \"Whole-network utilization\")."));
}

void addActivationsFields(std::vector<FieldSpec>& f) {
  f.push_back(boolField(
      "activations.table", [](Config& c) -> bool& { return c.activations.table; }, "false",
      "Build the mvout's function table (Brickyard's CONFIG_TABLE, funct 34): 256 int8 entries "
      "that MVOUTs from the accumulator apply to every element after the activation and any "
      "pooling, so that an int8 function (sigmoid, hard-swish, SiLU, ...) runs on a layer's way "
      "out instead of on the host (docs/isa.md, \"Function table\"). Without it funct 34 is "
      "UNKNOWN_FUNCT. Needs types.input_width: 8."));
}

void addSocFields(std::vector<FieldSpec>& f) {
  f.push_back(intField(
      "soc.clock_mhz", [](Config& c) -> int& { return c.soc.clockMHz; }, "1000", 1, 10000, false,
      "SoC and accelerator clock in MHz."));
  f.push_back(intField(
      "soc.host_cpi_tenths", [](Config& c) -> int& { return c.soc.hostCpiTenths; }, "10", 1, 1000,
      false, "Host CPU cycles per instruction, in tenths (10 = CPI 1.0)."));
  f.push_back(intField(
      "soc.dram.latency_cycles", [](Config& c) -> int& { return c.soc.dram.latencyCycles; }, "100",
      0, 100000, false, "DRAM latency to the first beat, in clock cycles."));
  f.push_back(intField(
      "soc.dram.bytes_per_cycle", [](Config& c) -> int& { return c.soc.dram.bytesPerCycle; }, "16",
      1, 1024, true, "Sustained DRAM bandwidth in bytes per clock cycle."));
  f.push_back(intField(
      "soc.dram.size_mib", [](Config& c) -> int& { return c.soc.dram.sizeMiB; }, "256", 1, 4096,
      false, "DRAM size in MiB (one backing store shared by host and accelerator)."));
}

// One entry per key, in the order of docs/config.md and of the config hash.
std::vector<FieldSpec> buildFields() {
  std::vector<FieldSpec> f;
  addNameField(f);
  addArrayFields(f);
  addTypesFields(f);
  addMemoryFields(f);
  addDmaFields(f);
  addTensorDashFields(f);
  addBovedaFields(f);
  addLoopsFields(f);
  addCommandsFields(f);
  addActivationsFields(f);
  addSocFields(f);
  return f;
}

std::vector<SectionSpec> buildSections() {
  return {
      {"array", "Shape of the systolic array and its dataflows."},
      {"types", "Element widths of the arithmetic (see docs/arithmetic.md)."},
      {"memory", "On-chip SRAMs."},
      {"memory.scratchpad", "Banked scratchpad holding input/weight rows."},
      {"memory.accumulator", "Banked accumulator with read-modify-write accumulation."},
      {"dma", "AXI4 DMA engine between DRAM and the scratchpad/accumulator."},
      {"sparsity", "Sparsity exploitation."},
      {"sparsity.tensordash", "TensorDash sparse operand interconnect (docs/tensordash.md)."},
      {"compression", "Memory compression."},
      {"compression.boveda", "Boveda lossless compression (docs/boveda.md)."},
      {"loops", "Hardware loop unrollers (Gemmini's LOOP_WS and LOOP_CONV_WS)."},
      {"commands", "How commands queue inside the accelerator."},
      {"activations", "Functions applied to results on their way out."},
      {"soc", "The SoC around the accelerator used by co-simulation."},
      {"soc.dram", "DRAM timing and size."},
  };
}

} // namespace

const std::vector<FieldSpec>& schemaFields() {
  static const std::vector<FieldSpec> fields = buildFields();
  return fields;
}

const std::vector<SectionSpec>& schemaSections() {
  static const std::vector<SectionSpec> sections = buildSections();
  return sections;
}

const FieldSpec* findField(const std::string& key) {
  for (const FieldSpec& f : schemaFields())
    if (f.key == key)
      return &f;
  return nullptr;
}

const SectionSpec* findSection(const std::string& key) {
  for (const SectionSpec& s : schemaSections())
    if (s.key == key)
      return &s;
  return nullptr;
}

void FieldSpec::set(Config& config, const std::string& canonical) const {
  switch (kind) {
  case Kind::Int:
    intRef(config) = std::stoi(canonical);
    break;
  case Kind::Bool:
    boolRef(config) = canonical == "true";
    break;
  case Kind::String:
    stringRef(config) = canonical;
    break;
  case Kind::Enum:
    for (size_t i = 0; i < choices.size(); ++i)
      if (choices[i] == canonical)
        setEnum(config, static_cast<int>(i));
    break;
  }
}

std::string FieldSpec::get(const Config& config) const {
  Config& c = const_cast<Config&>(config); // the refs only read here
  switch (kind) {
  case Kind::Int:
    return std::to_string(intRef(c));
  case Kind::Bool:
    return boolRef(c) ? "true" : "false";
  case Kind::String:
    return stringRef(c);
  case Kind::Enum:
    return choices.at(static_cast<size_t>(getEnum(config)));
  }
  return {};
}

std::string FieldSpec::allowed() const {
  std::ostringstream os;
  switch (kind) {
  case Kind::Int:
    if (powerOfTwo && min == 0) // 0 stands for "not set" (the field's doc says what then)
      os << "0 or a power of two from 1 to " << max;
    else
      os << (powerOfTwo ? "a power of two" : "an integer") << " from " << min << " to " << max;
    break;
  case Kind::Bool:
    os << "true or false";
    break;
  case Kind::String:
    os << "a name of letters, digits, '_' and '-' (1 to 40 characters)";
    break;
  case Kind::Enum:
    os << "one of ";
    for (size_t i = 0; i < choices.size(); ++i)
      os << (i ? (i + 1 == choices.size() ? " or " : ", ") : "") << choices[i];
    break;
  }
  return os.str();
}

std::string canonicalText(const Config& config) {
  std::string text;
  for (const FieldSpec& f : schemaFields())
    text += f.key + " = " + f.get(config) + "\n";
  return text;
}

std::string configHash(const Config& config) {
  return support::hashHex(canonicalText(config));
}

std::string configToYaml(const Config& config, const std::string& comment) {
  std::ostringstream os;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);)
    os << "#" << (line.empty() ? "" : " " + line) << "\n";
  // Fields of one section are not always adjacent in the table: open each section once and
  // write all of its fields there (sections are mappings; a later field under an open
  // section would be a duplicate key).
  std::vector<std::string> written;
  std::function<void(const std::string&, int)> section = [&](const std::string& prefix, int depth) {
    const std::string indent(size_t(depth) * 2, ' ');
    for (const FieldSpec& f : schemaFields()) {
      if (f.key.rfind(prefix, 0) != 0)
        continue;
      const std::string rest = f.key.substr(prefix.size());
      const size_t dot = rest.find('.');
      if (dot == std::string::npos) {
        os << indent << rest << ": " << f.get(config) << "\n";
        continue;
      }
      const std::string child = prefix + rest.substr(0, dot);
      if (std::find(written.begin(), written.end(), child) != written.end())
        continue;
      written.push_back(child);
      os << indent << rest.substr(0, dot) << ":\n";
      section(child + ".", depth + 1);
    }
  };
  section("", 0);
  return os.str();
}

std::string schemaReferenceMarkdown() {
  std::ostringstream os;
  auto row = [&](const FieldSpec& f) {
    os << "| `" << f.key << "` | " << f.allowed() << " | "
       << (f.defaultValue ? "`" + *f.defaultValue + "`" : "**required**") << " | " << f.doc
       << " |\n";
  };
  const char* header = "| key | allowed | default | meaning |\n|---|---|---|---|\n";
  os << "### Top level\n\n" << header;
  for (const FieldSpec& f : schemaFields())
    if (f.key.find('.') == std::string::npos)
      row(f);
  for (const SectionSpec& s : schemaSections()) {
    os << "\n### `" << s.key << "`\n\n" << s.doc << "\n";
    bool any = false;
    for (const FieldSpec& f : schemaFields()) {
      const std::string prefix = s.key + ".";
      if (f.key.rfind(prefix, 0) != 0 || f.key.find('.', prefix.size()) != std::string::npos)
        continue;
      if (!any)
        os << "\n" << header;
      any = true;
      row(f);
    }
  }
  return os.str();
}

} // namespace by::config
