// The config a Verilated testbench was built for (BY_CONFIG_NAME, set by CMake).
#pragma once

#include "config/loader.h"
#include "hw/array_params.h"

#include <string>

namespace by::test {

inline config::Config builtConfig() {
  return config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/" + BY_CONFIG_NAME +
                                ".yaml");
}

} // namespace by::test
