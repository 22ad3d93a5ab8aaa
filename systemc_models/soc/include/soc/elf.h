// Bare-metal RISC-V ELF64 programs: reading, validation and loading into DRAM.
#pragma once

#include "soc_core/memory_map.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace by::soc {

/// A program that cannot run on the SoC. what() is one line: "PATH: what is wrong".
class ElfError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct ElfSegment {
  uint64_t address = 0; // physical (load) address
  uint64_t memSize = 0; // bytes in memory; those past data.size() are zero
  bool executable = false;
  std::vector<uint8_t> data;
};

/// A data or function symbol of the program (from .symtab).
struct ElfSymbol {
  uint64_t address = 0;
  uint64_t size = 0;
};

struct ElfImage {
  std::string path;
  uint64_t entry = 0;
  std::vector<ElfSegment> segments;         // the PT_LOAD segments
  std::map<std::string, ElfSymbol> symbols; // named objects and functions (may be empty)
};

/// Reads and validates an ELF: magic, ELF64, little-endian, EM_RISCV, ET_EXEC, header and
/// segment bounds. Throws ElfError.
ElfImage readElf(const std::string& path);
/// Same, from bytes already in memory; `path` is used in messages.
ElfImage parseElf(const std::vector<uint8_t>& bytes, const std::string& path);

/// Throws ElfError if a segment lies outside `region` or the entry point is not in an
/// executable segment (e.g. a program linked for a config with more DRAM).
void checkElfFits(const ElfImage& image, const Region& region);

/// checkElfFits(), then copies the segments into `dram` (the backing store of `region`) and
/// zero-fills their .bss parts.
void loadElf(const ElfImage& image, const Region& region, uint8_t* dram);

} // namespace by::soc
