// A loaded model library (model_abi.h) and one model instance from it.
#pragma once

#include "rtlmodel/model_abi.h"

#include <filesystem>
#include <string>

namespace by::rtlmodel {

class ModelLibrary {
public:
  /// dlopen()s the library and checks its ABI; throws std::runtime_error.
  explicit ModelLibrary(const std::filesystem::path& path);
  ~ModelLibrary();
  ModelLibrary(const ModelLibrary&) = delete;
  ModelLibrary& operator=(const ModelLibrary&) = delete;

  const ModelApi& api() const { return *api_; }

private:
  void* handle_ = nullptr;
  const ModelApi* api_ = nullptr;
};

/// One Verilated accelerator. cycle() is inline: it runs once per simulated clock cycle.
class ModelInstance {
public:
  explicit ModelInstance(const ModelLibrary& library);
  ~ModelInstance();
  ModelInstance(const ModelInstance&) = delete;
  ModelInstance& operator=(const ModelInstance&) = delete;

  void cycle(Ports& ports, uint64_t timePs, uint64_t halfPeriodPs, bool dump) {
    cycle_(model_, &ports, timePs, halfPeriodPs, dump);
  }
  /// Throws std::runtime_error if the library has no tracing or the file cannot be written.
  void openTrace(const std::string& path);

private:
  const ModelApi& api_;
  void (*cycle_)(void*, Ports*, uint64_t, uint64_t, int);
  void* model_ = nullptr;
};

} // namespace by::rtlmodel
