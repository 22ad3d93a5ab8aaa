#include "soc/elf.h"

#include "soc_core/format.h"

#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <iterator>

namespace by::soc {
namespace {

const char* machineName(uint16_t machine) {
  switch (machine) {
  case EM_386:
    return "x86";
  case EM_X86_64:
    return "x86-64";
  case EM_ARM:
    return "ARM";
  case EM_AARCH64:
    return "AArch64";
  case EM_RISCV:
    return "RISC-V";
  default:
    return "another machine";
  }
}

/// Objects and functions of .symtab (a stripped program has none; malformed tables are
/// ignored: symbols are optional).
void readSymbols(const std::vector<uint8_t>& bytes, const Elf64_Ehdr& eh, ElfImage& image) {
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff == 0 ||
      eh.e_shoff + uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) > bytes.size())
    return;
  auto section = [&](unsigned i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, bytes.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof sh);
    return sh;
  };
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sh = section(i);
    if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh.e_shnum || sh.sh_entsize != sizeof(Elf64_Sym))
      continue;
    const Elf64_Shdr strtab = section(sh.sh_link);
    if (sh.sh_offset + sh.sh_size > bytes.size() ||
        strtab.sh_offset + strtab.sh_size > bytes.size())
      return;
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, bytes.data() + sh.sh_offset + off, sizeof sym);
      const int type = ELF64_ST_TYPE(sym.st_info);
      if ((type != STT_OBJECT && type != STT_FUNC && type != STT_NOTYPE) ||
          sym.st_name >= strtab.sh_size || sym.st_shndx == SHN_UNDEF)
        continue;
      const char* name =
          reinterpret_cast<const char*>(bytes.data() + strtab.sh_offset + sym.st_name);
      const size_t maxLen = strtab.sh_size - sym.st_name;
      const std::string n(name, strnlen(name, maxLen));
      if (!n.empty() && (ELF64_ST_BIND(sym.st_info) == STB_GLOBAL || !image.symbols.count(n)))
        image.symbols[n] = ElfSymbol{sym.st_value, sym.st_size};
    }
  }
}

} // namespace

ElfImage readElf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ElfError(path + ": cannot open program: " + std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return parseElf(bytes, path);
}

ElfImage parseElf(const std::vector<uint8_t>& bytes, const std::string& path) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                "the ELF reader assumes a little-endian host");
  auto fail = [&](const std::string& what) { throw ElfError(path + ": " + what); };
  if (bytes.size() < SELFMAG || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
    fail("not an ELF file (bad magic); expected a bare-metal RISC-V ELF64 executable");
  if (bytes.size() < EI_NIDENT)
    fail("truncated ELF: the identification is incomplete");
  if (bytes[EI_CLASS] != ELFCLASS64)
    fail(std::string("is a ") + (bytes[EI_CLASS] == ELFCLASS32 ? "32-bit" : "malformed-class") +
         " ELF; the host CPU is RV64 (build with -march=rv64... -mabi=lp64d)");
  if (bytes[EI_DATA] != ELFDATA2LSB)
    fail("is not a little-endian ELF; RISC-V programs are little-endian");
  if (bytes.size() < sizeof(Elf64_Ehdr))
    fail("truncated ELF: file has " + std::to_string(bytes.size()) +
         " bytes, less than an ELF header");
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (eh.e_machine != EM_RISCV)
    fail(std::string("ELF for ") + machineName(eh.e_machine) + " (e_machine " +
         std::to_string(eh.e_machine) + "), expected RISC-V (" + std::to_string(EM_RISCV) + ")");
  if (eh.e_type != ET_EXEC)
    fail("ELF type " + std::to_string(eh.e_type) +
         " is not an executable (ET_EXEC); link the program with the Brickyard linker script");
  if (eh.e_phnum == 0)
    fail("ELF has no program headers (nothing to load)");
  if (eh.e_phentsize != sizeof(Elf64_Phdr))
    fail("malformed ELF: program header size " + std::to_string(eh.e_phentsize) + ", expected " +
         std::to_string(sizeof(Elf64_Phdr)));
  const uint64_t phEnd = eh.e_phoff + uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
  if (eh.e_phoff > bytes.size() || phEnd > bytes.size())
    fail("truncated ELF: program headers end at byte " + std::to_string(phEnd) +
         " but the file has " + std::to_string(bytes.size()));

  ElfImage image;
  image.path = path;
  image.entry = eh.e_entry;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, bytes.data() + eh.e_phoff + i * sizeof(Elf64_Phdr), sizeof ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    if (ph.p_filesz > ph.p_memsz)
      fail("malformed ELF: segment " + std::to_string(i) +
           " has more file bytes than memory bytes");
    if (ph.p_offset > bytes.size() || ph.p_filesz > bytes.size() - ph.p_offset)
      fail("truncated ELF: segment " + std::to_string(i) + " needs file bytes up to " +
           std::to_string(ph.p_offset + ph.p_filesz) + " but the file has " +
           std::to_string(bytes.size()));
    ElfSegment s;
    s.address = ph.p_paddr;
    s.memSize = ph.p_memsz;
    s.executable = ph.p_flags & PF_X;
    s.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(ph.p_offset),
                  bytes.begin() + static_cast<std::ptrdiff_t>(ph.p_offset + ph.p_filesz));
    image.segments.push_back(std::move(s));
  }
  if (image.segments.empty())
    fail("ELF has no loadable (PT_LOAD) segment");
  readSymbols(bytes, eh, image);
  return image;
}

void checkElfFits(const ElfImage& image, const Region& region) {
  for (const ElfSegment& s : image.segments) {
    if (s.address < region.base || s.memSize > region.size ||
        s.address - region.base > region.size - s.memSize)
      throw ElfError(image.path + ": segment [" + hex(s.address) + ", " +
                     hex(s.address + s.memSize) + ") lies outside " + region.name + " [" +
                     hex(region.base) + ", " + hex(region.end()) +
                     "); was the program linked for this config (soc.dram.size_mib)?");
  }
  bool entryOk = false;
  for (const ElfSegment& s : image.segments)
    entryOk |= s.executable && image.entry >= s.address && image.entry - s.address < s.memSize;
  if (!entryOk)
    throw ElfError(image.path + ": entry point " + hex(image.entry) +
                   " is not inside an executable segment");
}

void loadElf(const ElfImage& image, const Region& region, uint8_t* dram) {
  checkElfFits(image, region);
  for (const ElfSegment& s : image.segments) {
    uint8_t* dst = dram + (s.address - region.base);
    std::memcpy(dst, s.data.data(), s.data.size());
    std::memset(dst + s.data.size(), 0, s.memSize - s.data.size());
  }
}

} // namespace by::soc
