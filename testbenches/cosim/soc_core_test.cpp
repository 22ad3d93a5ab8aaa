// The SoC's plain-C++ core: the memory-map table and the files derived from it, RoCC
// decoding, ELF validation and loading.
#include "config/loader.h"
#include "soc/elf.h"
#include "soc_core/layout.h"
#include "soc_core/memory_map.h"
#include "soc_core/rocc.h"

#include <cstring>
#include <elf.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace by::soc {
namespace {

config::Config tiny() {
  return config::loadConfigFile(std::string(BY_SOURCE_DIR) + "/configs/tiny.yaml");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MemoryMap, FixedAddressesAndDramFromConfig) {
  const MemoryMap map(tiny().soc);
  EXPECT_EQ(map.region(RegionId::Dram).base, 0x8000'0000u);
  EXPECT_EQ(map.region(RegionId::Dram).size, 64u << 20); // tiny: size_mib 64
  EXPECT_EQ(map.region(RegionId::Uart).base, 0x1000'0000u);
  EXPECT_EQ(map.region(RegionId::Exit).base, 0x1000'1000u);
  EXPECT_EQ(map.region(RegionId::Timer).base, 0x1000'2000u);
  EXPECT_EQ(map.region(RegionId::AccelControl).base, 0x1001'0000u);
  EXPECT_EQ(map.region(RegionId::AccelControl).size, 64u << 10);
  EXPECT_EQ(map.find(0x8000'0000u + (64u << 20) - 1)->id, RegionId::Dram);
  EXPECT_EQ(map.find(0x8000'0000u + (64u << 20)), nullptr);
  EXPECT_EQ(map.find(0x1001'fffcu)->id, RegionId::AccelControl);
  EXPECT_EQ(map.find(0x2000'0000u), nullptr);
}

TEST(Layout, HeaderHasEveryRegionRegisterAndField) {
  const MemoryMap map(tiny().soc);
  const std::string h = socHeader(map, "tiny");
  EXPECT_TRUE(contains(h, "#define BY_SOC_CLOCK_MHZ 1000u\n"));
  EXPECT_TRUE(contains(h, "#define BY_SOC_DRAM_BASE 0x80000000ull\n"));
  EXPECT_TRUE(contains(h, "#define BY_SOC_DRAM_SIZE 0x04000000ull\n"));
  for (const Region& r : map.regions()) {
    EXPECT_TRUE(contains(h, std::string("#define BY_SOC_") + r.macro + "_BASE ")) << r.name;
    for (const RegisterDesc& reg : r.registers) {
      EXPECT_TRUE(contains(h, std::string("#define BY_SOC_") + r.macro + "_" + reg.name + " "));
      for (const FieldDesc& f : reg.fields)
        EXPECT_TRUE(contains(h, std::string("#define BY_SOC_") + r.macro + "_" + reg.name + "_" +
                                    f.name + " "));
    }
  }
  EXPECT_TRUE(contains(h, "#define BY_SOC_TIMER_CYCLES_HI 0x04u"));
  EXPECT_TRUE(contains(h, "#define BY_SOC_ROCC_OPCODE 0x7bu\n"));
}

TEST(Layout, LinkerFragmentHasTheConfiguredDram) {
  config::Config c = tiny();
  c.soc.dram.sizeMiB = 256;
  const std::string ld = linkerScriptFragment(MemoryMap(c.soc), "big");
  EXPECT_TRUE(contains(ld, "dram (rwx) : ORIGIN = 0x80000000, LENGTH = 0x10000000\n")) << ld;
}

TEST(Layout, DocsTableMatchesTheCode) {
  // docs/soc.md carries the generated tables between the markers that scripts/update-docs.sh
  // uses (topic `soc`); paste the table printed below when the map changes.
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/docs/soc.md");
  std::ostringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const std::string begin = "<!-- BEGIN GENERATED: brickyard doc soc -->\n";
  const size_t i = text.find(begin);
  const size_t j = text.find("<!-- END GENERATED -->", i);
  ASSERT_NE(i, std::string::npos) << "markers missing in docs/soc.md";
  ASSERT_NE(j, std::string::npos) << "markers missing in docs/soc.md";
  const std::string table = memoryMapMarkdown(MemoryMap(tiny().soc));
  EXPECT_EQ(text.substr(i + begin.size(), j - i - begin.size()), table)
      << "docs/soc.md is out of date; its generated section must be:\n"
      << table;
}

TEST(Rocc, DecodesEveryField) {
  // .insn r CUSTOM_3, funct3, funct7, rd, rs1, rs2
  auto encode = [](uint32_t funct7, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t rd) {
    return funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | 0x7b;
  };
  const auto a = decodeRocc(encode(100, 14, 13, 7, 15));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->funct7, 100u);
  EXPECT_TRUE(a->xd && a->xs1 && a->xs2);
  EXPECT_EQ(a->rd, 15u);
  EXPECT_EQ(a->rs1, 13u);
  EXPECT_EQ(a->rs2, 14u);
  const auto b = decodeRocc(encode(127, 31, 0, 0b011, 0));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->funct7, 127u);
  EXPECT_FALSE(b->xd);
  EXPECT_TRUE(b->xs1 && b->xs2);
  EXPECT_EQ(b->rs2, 31u);
  const auto c = decodeRocc(encode(1, 2, 3, 0b100, 4));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->xd);
  EXPECT_FALSE(c->xs1 || c->xs2);
  EXPECT_FALSE(decodeRocc(0x0000000b)); // custom-0
  EXPECT_FALSE(decodeRocc(0x00000013)); // nop
}

// A minimal ELF64: header, one PT_LOAD program header, then `payload`.
std::vector<uint8_t> makeElf(uint16_t machine = EM_RISCV, uint64_t address = 0x8000'0000,
                             uint64_t memSize = 16) {
  const std::vector<uint8_t> payload = {0x13, 0, 0, 0, 0x6f, 0, 0, 0}; // nop; j .
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = machine;
  eh.e_version = EV_CURRENT;
  eh.e_entry = address;
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 1;
  Elf64_Phdr ph{};
  ph.p_type = PT_LOAD;
  ph.p_flags = PF_R | PF_X;
  ph.p_offset = sizeof eh + sizeof ph;
  ph.p_vaddr = ph.p_paddr = address;
  ph.p_filesz = payload.size();
  ph.p_memsz = memSize;
  std::vector<uint8_t> bytes(sizeof eh + sizeof ph + payload.size());
  std::memcpy(bytes.data(), &eh, sizeof eh);
  std::memcpy(bytes.data() + sizeof eh, &ph, sizeof ph);
  std::memcpy(bytes.data() + sizeof eh + sizeof ph, payload.data(), payload.size());
  return bytes;
}

void expectElfError(const std::vector<uint8_t>& bytes, const std::string& part) {
  try {
    parseElf(bytes, "p.elf");
    ADD_FAILURE() << "accepted; expected: " << part;
  } catch (const ElfError& e) {
    EXPECT_TRUE(contains(e.what(), part)) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("p.elf: ", 0), 0u) << e.what();
  }
}

TEST(Elf, ValidProgramLoadsAndZeroFills) {
  const ElfImage image = parseElf(makeElf(), "p.elf");
  EXPECT_EQ(image.entry, 0x8000'0000u);
  ASSERT_EQ(image.segments.size(), 1u);
  const Region dram{RegionId::Dram, "dram", "DRAM", 0x8000'0000, 4096, true, "", "", {}};
  std::vector<uint8_t> memory(4096, 0xee);
  loadElf(image, dram, memory.data());
  EXPECT_EQ(memory[0], 0x13);
  EXPECT_EQ(memory[4], 0x6f);
  EXPECT_EQ(memory[8], 0); // .bss part of the segment
  EXPECT_EQ(memory[15], 0);
  EXPECT_EQ(memory[16], 0xee); // untouched
}

TEST(Elf, MalformedFilesAreRejected) {
  std::vector<uint8_t> e = makeElf();
  expectElfError({'#', '!', '/', 'b'}, "not an ELF file (bad magic)");
  e[EI_CLASS] = ELFCLASS32;
  expectElfError(e, "32-bit");
  e = makeElf();
  e[EI_DATA] = ELFDATA2MSB;
  expectElfError(e, "not a little-endian ELF");
  expectElfError(makeElf(EM_X86_64), "ELF for x86-64 (e_machine 62), expected RISC-V (243)");
  e = makeElf();
  e[offsetof(Elf64_Ehdr, e_type)] = ET_DYN;
  expectElfError(e, "is not an executable (ET_EXEC)");
  e = makeElf();
  expectElfError(std::vector<uint8_t>(e.begin(), e.begin() + 40), "truncated ELF");
  expectElfError(std::vector<uint8_t>(e.begin(), e.begin() + 80), "truncated ELF: program headers");
  expectElfError(std::vector<uint8_t>(e.begin(), e.end() - 2), "truncated ELF: segment 0");
}

TEST(Elf, SegmentsOutsideDramAreRejected) {
  const Region dram{RegionId::Dram, "dram", "DRAM", 0x8000'0000, 4096, true, "", "", {}};
  std::vector<uint8_t> memory(4096);
  const ElfImage high = parseElf(makeElf(EM_RISCV, 0x8000'0000 + 4090), "p.elf");
  try {
    loadElf(high, dram, memory.data());
    ADD_FAILURE() << "accepted a segment past the end of DRAM";
  } catch (const ElfError& e) {
    EXPECT_TRUE(contains(e.what(), "lies outside dram")) << e.what();
  }
  const ElfImage low = parseElf(makeElf(EM_RISCV, 0x1000), "p.elf");
  EXPECT_THROW(loadElf(low, dram, memory.data()), ElfError);
}

} // namespace
} // namespace by::soc
