#pragma once

#include "hw/generators.h"

namespace by::hw {

/// See store_controller.cpp.
class StoreControllerGenerator {
public:
  explicit StoreControllerGenerator(const AccelParams& p) : p_(p) {}
  vlog::Module build() const;

private:
  AccelParams p_;
};

/// Boveda configs: the compressed-MVOUT path (boveda_store.cpp), added to the store
/// controller's body; it uses the controller's ret stage, accept and op-table signals.
void addCompressedStorePath(vlog::Body& b, const AccelParams& p, const BovedaHwParams& h);

} // namespace by::hw
