#include "contract/manifest.h"

#include "config/derived.h"
#include "config/schema.h"
#include "contract/software_files.h"
#include "hwspec/array_params.h"

namespace by::contract {

using nlohmann::ordered_json;

ordered_json configJson(const config::Config& c) {
  ordered_json root = ordered_json::object();
  for (const config::FieldSpec& f : config::schemaFields()) {
    // Place the value at its dotted path.
    ordered_json* node = &root;
    std::string key = f.key;
    size_t dot;
    while ((dot = key.find('.')) != std::string::npos) {
      node = &(*node)[key.substr(0, dot)];
      key = key.substr(dot + 1);
    }
    const std::string v = f.get(c);
    switch (f.kind) {
    case config::Kind::Int:
      (*node)[key] = std::stoll(v);
      break;
    case config::Kind::Bool:
      (*node)[key] = v == "true";
      break;
    case config::Kind::Enum:
    case config::Kind::String:
      (*node)[key] = v;
      break;
    }
  }
  return root;
}

ordered_json buildManifest(const config::Config& c, const RtlSummary& rtl,
                           const std::string& generator) {
  const config::Derived d = config::derive(c);
  ordered_json m;
  m["generator"] = generator;
  m["config_name"] = c.name;
  m["config_hash"] = config::configHash(c);
  m["config"] = configJson(c);
  m["derived"] = {
      {"dim", d.dim},
      {"peak_macs_per_cycle", d.peakMacsPerCycle},
      {"sp_row_bytes", d.spRowBytes},
      {"sp_rows", d.spRows},
      {"sp_bank_rows", d.spBankRows},
      {"acc_row_bytes", d.accRowBytes},
      {"acc_rows", d.accRows},
      {"acc_bank_rows", d.accBankRows},
      {"max_block_len", d.maxBlockLen},
      {"max_block_len_acc", d.maxBlockLenAcc},
      {"dma_bus_bytes", d.busBytes},
  };
  const hw::ArrayParams a = hw::arrayParams(c);
  m["mesh"] = {
      {"latency_cycles", a.latency()},
      {"a_bits_per_row", a.aWidth()},
      {"b_bits_per_col", a.bWidth()},
      {"d_bits_per_col", a.dWidth()},
      {"stationary_register_bits", a.regWidth()},
      {"shift_bits", a.shiftWidth},
      {"dataflows", a.both()  ? "ws+os"
                    : a.hasWs ? "ws"
                              : "os"},
  };
  m["top"] = rtl.top;
  ordered_json modules = ordered_json::array();
  for (const RtlSummary::Module& mod : rtl.modules)
    modules.push_back({{"name", mod.name}, {"file", mod.file}, {"instantiates", mod.instantiates}});
  m["modules"] = modules;
  ordered_json files = {{"filelist", rtl.filelist}};
  for (const SoftwareFile& f : softwareFileTable())
    files[f.key] = f.path;
  m["files"] = files;
  return m;
}

} // namespace by::contract
