// Documentation generated from the code must match the committed docs (refresh them with
// scripts/update-docs.sh): a key added to the schema and not documented fails here.
#include "config/schema.h"
#include "eval/energy.h"
#include "hwspec/isa.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace {

std::string generatedSection(const std::string& file, const std::string& topic) {
  std::ifstream in(std::string(BY_SOURCE_DIR) + "/" + file);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  const std::string begin = "<!-- BEGIN GENERATED: brickyard doc " + topic + " -->\n";
  const size_t i = text.find(begin);
  const size_t j = text.find("<!-- END GENERATED -->", i);
  if (i == std::string::npos || j == std::string::npos)
    return "(markers missing in " + file + ")";
  return text.substr(i + begin.size(), j - i - begin.size());
}

} // namespace

TEST(Docs, ConfigReferenceMatchesTheSchema) {
  const std::string doc = generatedSection("docs/config.md", "config");
  EXPECT_EQ(doc, by::config::schemaReferenceMarkdown())
      << "docs/config.md is out of date: run scripts/update-docs.sh";
  for (const auto& f : by::config::schemaFields())
    EXPECT_NE(doc.find("`" + f.key + "`"), std::string::npos) << f.key << " is not documented";
}

TEST(Docs, IsaReferenceMatchesTheTable) {
  const std::string doc = generatedSection("docs/isa.md", "isa");
  EXPECT_EQ(doc, by::hw::isa::referenceMarkdown())
      << "docs/isa.md is out of date: run scripts/update-docs.sh";
}

TEST(Docs, EnergyTableMatchesTheCode) {
  EXPECT_EQ(generatedSection("docs/evaluation.md", "energy"), by::eval::energyTableMarkdown())
      << "docs/evaluation.md is out of date: run scripts/update-docs.sh";
}
