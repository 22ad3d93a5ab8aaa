#include "search.h"

namespace by::hw {

void firstIndex(vlog::Body& b, const std::string& count, const std::string& cond,
                const std::string& any, const std::string& index, const std::string& width,
                bool highest) {
  b.logic(any, vlog::Type::bit());
  b.logic(index, vlog::Type::bits(width));
  b.comb()
      .line(any + " = 1'b0;")
      .line(index + " = '0;")
      .forLoop(
          "i", count,
          [&](vlog::Stmts& s) {
            s.ifElse("!" + any + " && " + cond, [&](vlog::Stmts& t) {
              t.line(any + " = 1'b1;").line(index + " = " + width + "'(i);");
            });
          },
          highest);
}

} // namespace by::hw
