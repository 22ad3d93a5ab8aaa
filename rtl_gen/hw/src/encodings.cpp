#include "encodings.h"

#include "op_layouts.h"

#include <stdexcept>

namespace by::hw {

int Encoding::code(const std::string& name) const {
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i].first == name)
      return static_cast<int>(i);
  throw std::logic_error("encoding " + type + " has no value " + name);
}

const Encoding& opKindEncoding() {
  static const Encoding e = [] {
    Encoding k{"op_kind_e", 2, {}};
    k.values.resize(3);
    k.values[kKindLoad] = {"OpLoad", "MVIN / MVIN2 / MVIN3 / DECOMPRESS: the load controller"};
    k.values[kKindStore] = {"OpStore", "MVOUT: the store controller"};
    k.values[kKindExec] = {"OpExec", "PRELOAD + COMPUTE: the execute controller"};
    return k;
  }();
  return e;
}

const Encoding& storeModeEncoding() {
  static const Encoding e{"store_mode_e",
                          2,
                          {{"StoreRows", "rows of column blocks"},
                           {"StorePool", "max-pooling windows"},
                           {"StoreStrided", "strided 1-D pixels"}}};
  return e;
}

const Encoding& loadChannelEncoding() {
  static const Encoding e{"load_channel_e",
                          2,
                          {{"ChMvin", "MVIN (CONFIG_LD state 0)"},
                           {"ChMvin2", "MVIN2 (state 1)"},
                           {"ChMvin3", "MVIN3 (state 2)"},
                           {"ChDecompress", "DECOMPRESS (Boveda on-chip form)"}}};
  return e;
}

void declareEnum(vlog::Body& b, const Encoding& e) {
  b.enumType({e.type, e.width, e.values, {}});
}

} // namespace by::hw
