#include "model_library.h"

#include <dlfcn.h>
#include <stdexcept>

namespace by::rtlmodel {

ModelLibrary::ModelLibrary(const std::filesystem::path& path) {
  // RTLD_LOCAL: the library's Verilator runtime stays private to it.
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_)
    throw std::runtime_error("cannot load the model library: " + std::string(dlerror()));
  using Entry = const ModelApi* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(handle_, BY_RTL_MODEL_API_SYMBOL));
  if (entry)
    api_ = entry();
  if (!api_ || api_->abiVersion != kAbiVersion || api_->portsSize != sizeof(Ports)) {
    dlclose(handle_);
    throw std::runtime_error(path.string() +
                             " is not a model library of this Brickyard version (remove it "
                             "from the cache to rebuild it)");
  }
}

ModelLibrary::~ModelLibrary() {
  dlclose(handle_);
}

ModelInstance::ModelInstance(const ModelLibrary& library)
    : api_(library.api()), cycle_(library.api().cycle) {
  char error[512] = "";
  model_ = api_.create(error, sizeof error);
  if (!model_)
    throw std::runtime_error(std::string("cannot create the Verilated model: ") + error);
}

ModelInstance::~ModelInstance() {
  api_.destroy(model_);
}

void ModelInstance::openTrace(const std::string& path) {
  char error[512] = "";
  if (!api_.openTrace(model_, path.c_str(), error, sizeof error))
    throw std::runtime_error(error);
}

} // namespace by::rtlmodel
