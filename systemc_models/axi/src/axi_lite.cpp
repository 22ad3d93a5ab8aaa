#include "axi/axi_lite.h"

namespace by::axi {

LiteMaster::LiteMaster(const LiteMasterConfig& config) : cfg_(config), rng_(config.seed) {}

void LiteMaster::write(uint32_t addr, uint32_t data, uint32_t strb) {
  queue_.push_back({true, addr, data, strb});
  if (!active_)
    start();
}

void LiteMaster::read(uint32_t addr) {
  queue_.push_back({false, addr, 0, 0});
  if (!active_)
    start();
}

void LiteMaster::start() {
  active_ = queue_.front();
  queue_.pop_front();
  startCycle_ = now_;
  addrDelay_ = static_cast<int>(rng_.range(0, cfg_.maxDelay));
  dataDelay_ = active_->write ? static_cast<int>(rng_.range(0, cfg_.maxDelay)) : 0;
  addrDone_ = false;
  dataDone_ = !active_->write;
}

void LiteMaster::drive(LiteBus& bus) const {
  const bool write = active_ && active_->write;
  const bool read = active_ && !active_->write;
  bus.aw.valid = write && !addrDone_ && addrDelay_ == 0;
  bus.aw.addr = write ? active_->addr : 0;
  bus.aw.prot = cfg_.prot;
  bus.w.valid = write && !dataDone_ && dataDelay_ == 0;
  bus.w.data = write ? active_->data : 0;
  bus.w.strb = write ? active_->strb : 0;
  bus.ar.valid = read && !addrDone_ && addrDelay_ == 0;
  bus.ar.addr = read ? active_->addr : 0;
  bus.ar.prot = cfg_.prot;
  bus.b.ready = respReady_;
  bus.r.ready = respReady_;
}

void LiteMaster::tick(const LiteBus& bus) {
  if (active_) {
    const bool write = active_->write;
    if ((write ? bus.aw.fire() : bus.ar.fire()))
      addrDone_ = true;
    if (write && bus.w.fire())
      dataDone_ = true;
    if (addrDelay_ > 0)
      --addrDelay_;
    if (dataDelay_ > 0)
      --dataDelay_;
    const bool answered = write ? bus.b.fire() : bus.r.fire();
    if (answered) {
      LiteResult r;
      r.write = write;
      r.addr = active_->addr;
      r.data = write ? active_->data : bus.r.data;
      r.resp = write ? bus.b.resp : bus.r.resp;
      r.startCycle = startCycle_;
      r.endCycle = now_;
      results_.push_back(r);
      active_.reset();
    }
  }
  ++now_;
  respReady_ = rng_.percent(cfg_.readyPercent);
  if (!active_ && !queue_.empty())
    start();
}

} // namespace by::axi
