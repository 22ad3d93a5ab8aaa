// Building a compiled model into a bare-metal ELF with the project's RISC-V toolchain
// (riscv64-unknown-elf-gcc + picolibc, cmake/riscv64-toolchain.cmake's flags): the driver
// library and runtime for a config and HAL are built once and cached (keyed by the config
// hash, the HAL and the driver sources), then each program is compiled and linked against
// them.
#pragma once

#include "config/config.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace by::compiler {

/// The build failed (the message carries the tool's output).
class ToolchainError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Hal { Rocc, Mmio };
const char* halName(Hal hal);

struct DriverBuild {
  std::filesystem::path dir;     // the cache entry
  std::filesystem::path include; // generated headers (brickyard_params.h, ...) + soc layout
  std::filesystem::path library; // libby_driver.a (driver + runtime objects)
  std::string halDefine;         // -DBY_HAL_ROCC / -DBY_HAL_MMIO: programs need it too
};

/// Finds or builds the driver library for config + hal in the cache (support::cacheRoot of
/// `cacheDir`), as the entry driver-<config>-<config hash>-<hal>-<key>.
DriverBuild driverBuild(const config::Config& config, Hal hal, const std::string& cacheDir);

/// Compiles `sources` (C and assembly, in `workDir`) with the driver's headers and links them
/// with the driver and runtime into `elf`. Throws ToolchainError with the compiler's messages.
void linkProgram(const DriverBuild& driver, const std::filesystem::path& workDir,
                 const std::vector<std::string>& sources, const std::filesystem::path& elf);

} // namespace by::compiler
