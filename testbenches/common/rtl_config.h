// The config a Verilated testbench was built for (BY_CONFIG_NAME, set by CMake).
#pragma once

#include "config/loader.h"
#include "hwspec/array_params.h"

#include <fstream>
#include <string>

namespace by::test {

inline config::Config builtConfig() {
  const std::string shipped = std::string(BY_SOURCE_DIR) + "/configs/" + BY_CONFIG_NAME + ".yaml";
  const std::string testOnly =
      std::string(BY_SOURCE_DIR) + "/testbenches/configs/" + BY_CONFIG_NAME + ".yaml";
  return config::loadConfigFile(std::ifstream(shipped).good() ? shipped : testOnly);
}

} // namespace by::test
