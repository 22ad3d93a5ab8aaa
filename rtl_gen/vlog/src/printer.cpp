#include "vlog/printer.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace by::vlog {

namespace {

constexpr size_t kLineLimit = 100;

const std::set<std::string>& keywords() {
  static const std::set<std::string> words = {
      "always",   "always_comb", "always_ff",   "and",         "assign",    "automatic",
      "begin",    "bit",         "buf",         "byte",        "case",      "casex",
      "casez",    "cell",        "class",       "config",      "const",     "default",
      "defparam", "design",      "disable",     "do",          "edge",      "else",
      "end",      "endcase",     "endfunction", "endgenerate", "endmodule", "endtask",
      "enum",     "event",       "final",       "for",         "force",     "forever",
      "fork",     "function",    "generate",    "genvar",      "if",        "initial",
      "inout",    "input",       "int",         "integer",     "interface", "join",
      "local",    "localparam",  "logic",       "longint",     "module",    "nand",
      "negedge",  "nor",         "not",         "or",          "output",    "package",
      "packed",   "parameter",   "posedge",     "priority",    "real",      "reg",
      "release",  "repeat",      "return",      "shortint",    "signed",    "specify",
      "static",   "string",      "struct",      "supply0",     "supply1",   "table",
      "task",     "time",        "tri",         "type",        "typedef",   "union",
      "unique",   "unsigned",    "use",         "var",         "void",      "wait",
      "while",    "wire",        "wor",         "xnor",        "xor"};
  return words;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

[[noreturn]] void nameError(const Module& m, const std::string& name, const std::string& why) {
  throw std::logic_error("generated module '" + m.name() + "': identifier '" + name + "' " + why);
}

void checkIdentifier(const Module& m, const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    nameError(m, name, "is not a valid identifier");
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      nameError(m, name, "is not a valid identifier");
  if (keywords().count(name))
    nameError(m, name, "is a SystemVerilog keyword");
}

void checkBody(const Module& m, const Body& body, std::set<std::string>& names) {
  auto declare = [&](const std::string& n) {
    checkIdentifier(m, n);
    if (!names.insert(n).second)
      nameError(m, n, "is declared twice");
  };
  for (const Item& item : body.items()) {
    if (const auto* d = std::get_if<DeclItem>(&item)) {
      declare(d->name);
    } else if (const auto* p = std::get_if<LocalParamItem>(&item)) {
      declare(p->name);
    } else if (const auto* e = std::get_if<EnumItem>(&item)) {
      if (!endsWith(e->typeName, "_e"))
        nameError(m, e->typeName, "is an enum type and must end in _e");
      declare(e->typeName);
      for (const auto& v : e->values) {
        declare(v.first);
        if (!std::isupper(static_cast<unsigned char>(v.first[0])))
          nameError(m, v.first, "is an enum value and must be UpperCamelCase");
      }
      for (const auto& v : e->variables)
        declare(v);
    } else if (const auto* inst = std::get_if<InstanceItem>(&item)) {
      if (inst->name.rfind("u_", 0) != 0)
        nameError(m, inst->name, "is an instance and must start with u_");
      declare(inst->name);
    } else if (const auto* f = std::get_if<FlopsItem>(&item)) {
      for (const Flop& flop : f->flops) {
        std::string base = flop.q.substr(0, flop.q.find_first_of("[ "));
        if (!endsWith(base, "_q"))
          nameError(m, flop.q, "is a register and must end in _q");
      }
    } else if (const auto* g = std::get_if<GenForItem>(&item)) {
      if (g->label.rfind("gen_", 0) != 0)
        nameError(m, g->label, "is a generate block and must start with gen_");
      std::set<std::string> inner = names; // a generate block opens a new scope
      inner.insert(g->genvar);
      checkBody(m, *g->body, inner);
    } else if (const auto* g = std::get_if<GenIfItem>(&item)) {
      if (g->label.rfind("gen_", 0) != 0)
        nameError(m, g->label, "is a generate block and must start with gen_");
      std::set<std::string> inner = names;
      checkBody(m, *g->then, inner);
      if (g->otherwise) {
        std::set<std::string> other = names;
        checkBody(m, *g->otherwise, other);
      }
    }
  }
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// Writes "// text" wrapped to the line limit at the given indentation.
void writeComment(std::ostream& os, const std::string& indent, const std::string& text) {
  std::istringstream paragraphs(text);
  std::string paragraph;
  while (std::getline(paragraphs, paragraph)) {
    std::istringstream words(paragraph);
    std::string word, line;
    bool wroteAny = false;
    while (words >> word) {
      if (!line.empty() && indent.size() + 3 + line.size() + 1 + word.size() > kLineLimit) {
        os << indent << "// " << line << "\n";
        wroteAny = true;
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty() || !wroteAny)
      os << indent << (line.empty() ? "//" : "// " + line) << "\n";
  }
}

// Breaks an expression's lines that are too long before a binary operator or after a comma
// (preferring the outermost nesting level), continuing them indented by two more columns.
std::string wrapExpression(const std::string& text, const std::string& indent) {
  std::istringstream in(text);
  std::string raw, out;
  bool first = true;
  while (std::getline(in, raw)) {
    // Lines after the first keep their own (generator-chosen) relative indentation.
    std::string lineIndent = indent;
    size_t start = raw.find_first_not_of(' ');
    std::string rest = start == std::string::npos ? "" : raw.substr(start);
    if (!first)
      lineIndent += std::string(start == std::string::npos ? 0 : std::min<size_t>(start, 8), ' ');
    first = false;
    const std::string continuation = lineIndent + "    ";
    while (lineIndent.size() + rest.size() > kLineLimit) {
      const size_t room = kLineLimit - lineIndent.size();
      size_t best = std::string::npos;
      int bestDepth = 1 << 20;
      int depth = 0;
      for (size_t i = 0; i < rest.size() && i < room; ++i) {
        char ch = rest[i];
        if (ch == '(' || ch == '{' || ch == '[')
          ++depth;
        else if (ch == ')' || ch == '}' || ch == ']')
          --depth;
        const bool opBreak =
            ch == ' ' && i + 1 < rest.size() &&
            (rest.compare(i + 1, 3, "&& ") == 0 || rest.compare(i + 1, 3, "|| ") == 0 ||
             rest.compare(i + 1, 2, "? ") == 0 || rest.compare(i + 1, 2, ": ") == 0 ||
             rest.compare(i + 1, 2, "+ ") == 0);
        const bool commaBreak = ch == ',' && i + 1 < rest.size() && rest[i + 1] == ' ';
        if ((opBreak || commaBreak) && depth <= bestDepth) {
          best = commaBreak ? i + 1 : i;
          bestDepth = depth;
        }
      }
      if (best == std::string::npos || best == 0)
        break; // nothing sensible to break at: leave the line long
      out += lineIndent + rest.substr(0, best) + "\n";
      rest = rest.substr(best + 1);
      lineIndent = continuation;
    }
    out += lineIndent + rest + "\n";
  }
  if (!out.empty())
    out.pop_back();
  return out;
}

std::string typeText(const Type& t) {
  if (!t.name.empty())
    return t.name;
  std::string s = "logic";
  if (t.isSigned)
    s += " signed";
  std::string r = t.range();
  if (!r.empty())
    s += " " + r;
  return s;
}

class Printer {
public:
  explicit Printer(std::ostream& os) : os_(os) {}

  void body(const Body& b, int level) {
    const std::string ind(2 * level, ' ');
    const auto& items = b.items();
    for (size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (const auto* c = std::get_if<CommentItem>(&item)) {
        writeComment(os_, ind, c->text);
      } else if (std::holds_alternative<BlankItem>(item)) {
        os_ << "\n";
      } else if (std::holds_alternative<LocalParamItem>(item) ||
                 std::holds_alternative<DeclItem>(item)) {
        // Align a run of consecutive declarations on the name and comment columns.
        size_t end = i;
        while (end < items.size() && (std::holds_alternative<LocalParamItem>(items[end]) ||
                                      std::holds_alternative<DeclItem>(items[end])))
          ++end;
        declRun(items, i, end, ind);
        i = end - 1;
      } else if (const auto* e = std::get_if<EnumItem>(&item)) {
        enumType(*e, ind);
      } else if (const auto* a = std::get_if<AssignItem>(&item)) {
        std::string line = ind + "assign " + a->lhs + " = " + a->rhs + ";";
        if (line.size() > kLineLimit) // continue the right-hand side on the next line
          line = ind + "assign " + a->lhs + " =\n" + wrapExpression(a->rhs + ";", ind + "    ");
        if (!a->comment.empty())
          writeComment(os_, ind, a->comment);
        os_ << line << "\n";
      } else if (const auto* c = std::get_if<CombItem>(&item)) {
        os_ << ind << "always_comb begin\n";
        stmts(c->body, level + 1);
        os_ << ind << "end\n";
      } else if (const auto* f = std::get_if<FlopsItem>(&item)) {
        flops(*f, ind);
      } else if (const auto* q = std::get_if<SeqItem>(&item)) {
        if (q->resetN.empty()) { // storage without reset (memories, datapath registers)
          os_ << ind << "always_ff @(posedge " << q->clock << ") begin\n";
          stmts(q->clocked, level + 1);
          os_ << ind << "end\n";
        } else {
          os_ << ind << "always_ff @(posedge " << q->clock << " or negedge " << q->resetN
              << ") begin\n"
              << ind << "  if (!" << q->resetN << ") begin\n";
          stmts(q->reset, level + 2);
          os_ << ind << "  end else begin\n";
          stmts(q->clocked, level + 2);
          os_ << ind << "  end\n" << ind << "end\n";
        }
      } else if (const auto* fn = std::get_if<FunctionItem>(&item)) {
        function(*fn, level);
      } else if (const auto* inst = std::get_if<InstanceItem>(&item)) {
        instance(*inst, ind);
      } else if (const auto* g = std::get_if<GenForItem>(&item)) {
        os_ << ind << "for (genvar " << g->genvar << " = 0; " << g->genvar << " < " << g->count
            << "; " << g->genvar << "++) begin : " << g->label << "\n";
        body(*g->body, level + 1);
        os_ << ind << "end\n";
      } else if (const auto* g = std::get_if<GenIfItem>(&item)) {
        os_ << ind << "if (" << g->cond << ") begin : " << g->label << "\n";
        body(*g->then, level + 1);
        if (g->otherwise) {
          os_ << ind << "end else begin : " << g->elseLabel << "\n";
          body(*g->otherwise, level + 1);
        }
        os_ << ind << "end\n";
      }
    }
  }

private:
  void declRun(const std::deque<Item>& items, size_t begin, size_t end, const std::string& ind) {
    std::vector<std::pair<std::string, std::string>> rows; // (text without comment, comment)
    for (size_t i = begin; i < end; ++i) {
      if (const auto* p = std::get_if<LocalParamItem>(&items[i]))
        rows.emplace_back("localparam " + p->type + " " + p->name + " = " + p->value + ";",
                          p->comment);
      else if (const auto* d = std::get_if<DeclItem>(&items[i]))
        rows.emplace_back(d->name, d->comment);
    }
    // Type column width for declarations.
    size_t typeWidth = 0;
    for (size_t i = begin; i < end; ++i)
      if (const auto* d = std::get_if<DeclItem>(&items[i]))
        typeWidth = std::max(typeWidth, typeText(d->type).size());
    size_t textWidth = 0;
    for (size_t i = begin; i < end; ++i) {
      std::string& text = rows[i - begin].first;
      if (const auto* d = std::get_if<DeclItem>(&items[i]))
        text = (d->attribute.empty() ? "" : "(* " + d->attribute + " *) ") +
               pad(typeText(d->type), typeWidth) + " " + d->name +
               (d->unpacked.empty() ? "" : " [" + d->unpacked + "]") + ";";
      textWidth = std::max(textWidth, text.size());
    }
    for (const auto& [text, comment] : rows) {
      if (comment.empty()) {
        os_ << ind << text << "\n";
      } else if (ind.size() + textWidth + 5 + comment.size() <= kLineLimit) {
        os_ << ind << pad(text, textWidth) << "  // " << comment << "\n";
      } else {
        writeComment(os_, ind, comment);
        os_ << ind << text << "\n";
      }
    }
  }

  // The inputs on the signature line, or one per line when they do not fit.
  void function(const FunctionItem& fn, int level) {
    const std::string ind(2 * level, ' ');
    std::vector<std::string> args;
    size_t length = 0;
    for (const auto& [name, type] : fn.args) {
      args.push_back("input " + typeText(type) + " " + name);
      length += args.back().size() + 2;
    }
    const std::string head = "function automatic " + typeText(fn.result) + " " + fn.name + "(";
    const bool oneLine = ind.size() + head.size() + length + 1 <= kLineLimit;
    os_ << ind << head;
    for (size_t i = 0; i < args.size(); ++i) {
      if (oneLine)
        os_ << (i ? ", " : "") << args[i];
      else
        os_ << (i ? "," : "") << "\n" << ind << "    " << args[i];
    }
    os_ << ");\n";
    size_t typeWidth = 0;
    for (const auto& local : fn.locals)
      typeWidth = std::max(typeWidth, typeText(local.second).size());
    for (const auto& [name, type] : fn.locals)
      os_ << ind << "  " << pad(typeText(type), typeWidth) << " " << name << ";\n";
    stmts(fn.body, level + 1);
    os_ << ind << "endfunction\n";
  }

  void enumType(const EnumItem& e, const std::string& ind) {
    os_ << ind << "typedef enum logic [" << e.width - 1 << ":0] {\n";
    size_t nameWidth = 0;
    for (const auto& v : e.values)
      nameWidth = std::max(nameWidth, v.first.size());
    for (size_t i = 0; i < e.values.size(); ++i) {
      std::string text = pad(e.values[i].first, nameWidth) + " = " + std::to_string(e.width) +
                         "'d" + std::to_string(i) + (i + 1 < e.values.size() ? "," : "");
      os_ << ind << "  " << text;
      if (!e.values[i].second.empty())
        os_ << std::string(i + 1 < e.values.size() ? 1 : 2, ' ') << " // " << e.values[i].second;
      os_ << "\n";
    }
    os_ << ind << "} " << e.typeName << ";\n";
    if (!e.variables.empty()) {
      os_ << ind << e.typeName << " ";
      for (size_t i = 0; i < e.variables.size(); ++i)
        os_ << (i ? ", " : "") << e.variables[i];
      os_ << ";\n";
    }
  }

  void stmts(const Stmts& s, int level) {
    for (const auto& [indent, text] : s.lines()) {
      const std::string ind(2 * (level + indent), ' ');
      if (text.rfind("// ", 0) == 0)
        writeComment(os_, ind, text.substr(3));
      else if (ind.size() + text.size() > kLineLimit)
        os_ << wrapExpression(text, ind) << "\n";
      else
        os_ << ind << text << "\n";
    }
  }

  void flops(const FlopsItem& f, const std::string& ind) {
    std::vector<Flop> withReset, withoutReset;
    for (const Flop& flop : f.flops)
      (flop.resetValue.empty() ? withoutReset : withReset).push_back(flop);
    // An array register loads (and resets) element by element: Icarus and Yosys take no
    // whole-array assignments.
    auto load = [&](const Flop& flop, const std::string& in, const std::string& value,
                    bool elementwise) {
      if (flop.count.empty())
        os_ << in << flop.q << " <= " << value << ";\n";
      else
        os_ << in << "for (int i = 0; i < " << flop.count << "; i++) " << flop.q
            << "[i] <= " << value << (elementwise ? "[i]" : "") << ";\n";
    };
    auto loads = [&](const std::vector<Flop>& list, const std::string& in) {
      for (const Flop& flop : list)
        load(flop, in, flop.d, true);
    };
    if (!withReset.empty()) {
      os_ << ind << "always_ff @(posedge " << f.clock << " or negedge " << f.resetN << ") begin\n";
      os_ << ind << "  if (!" << f.resetN << ") begin\n";
      for (const Flop& flop : withReset)
        load(flop, ind + "    ", flop.resetValue, false);
      if (f.enable.empty()) {
        os_ << ind << "  end else begin\n";
      } else {
        os_ << ind << "  end else if (" << f.enable << ") begin\n";
      }
      loads(withReset, ind + "    ");
      os_ << ind << "  end\n" << ind << "end\n";
    }
    if (!withoutReset.empty()) {
      os_ << ind << "always_ff @(posedge " << f.clock << ") begin\n";
      if (f.enable.empty()) {
        loads(withoutReset, ind + "  ");
      } else {
        os_ << ind << "  if (" << f.enable << ") begin\n";
        loads(withoutReset, ind + "    ");
        os_ << ind << "  end\n";
      }
      os_ << ind << "end\n";
    }
  }

  void instance(const InstanceItem& inst, const std::string& ind) {
    if (!inst.comment.empty())
      writeComment(os_, ind, inst.comment);
    auto connList = [&](const std::vector<std::pair<std::string, std::string>>& list) {
      size_t w = 0;
      for (const auto& c : list)
        w = std::max(w, c.first.size());
      for (size_t i = 0; i < list.size(); ++i)
        os_ << ind << "  ." << pad(list[i].first, w) << " (" << list[i].second << ")"
            << (i + 1 < list.size() ? "," : "") << "\n";
    };
    os_ << ind << inst.module;
    if (!inst.params.empty()) {
      os_ << " #(\n";
      connList(inst.params);
      os_ << ind << ")";
    }
    os_ << " " << inst.name << " (\n";
    connList(inst.conns);
    os_ << ind << ");\n";
  }

  std::ostream& os_;
};

} // namespace

void checkNames(const Module& m) {
  checkIdentifier(m, m.name());
  std::set<std::string> names;
  for (const Param& p : m.params()) {
    checkIdentifier(m, p.name);
    if (!std::isupper(static_cast<unsigned char>(p.name[0])))
      nameError(m, p.name, "is a parameter and must be UpperCamelCase");
    if (!names.insert(p.name).second)
      nameError(m, p.name, "is declared twice");
  }
  for (const Port& p : m.ports()) {
    checkIdentifier(m, p.name);
    bool ok = p.dir == Dir::Input ? (endsWith(p.name, "_i") || endsWith(p.name, "_ni"))
                                  : endsWith(p.name, "_o");
    if (!ok)
      nameError(m, p.name, "is a port and must end in _i/_ni (input) or _o (output)");
    if (!names.insert(p.name).second)
      nameError(m, p.name, "is declared twice");
  }
  checkBody(m, m.body(), names);
}

std::string printModule(const Module& m, const FileHeader& header) {
  checkNames(m);
  std::ostringstream os;
  os << "// Generated by " << header.generator << " from config \"" << header.configName
     << "\" (hash " << header.configHash << "). Do not edit.\n//\n";
  writeComment(os, "", m.description());
  os << "\nmodule " << m.name();
  if (!m.params().empty()) {
    os << " #(\n";
    size_t w = 0, tw = 0;
    for (const Param& p : m.params())
      w = std::max(w, p.name.size());
    for (const Param& p : m.params())
      tw = std::max(tw, ("parameter int " + pad(p.name, w) + " = " + p.value).size());
    for (size_t i = 0; i < m.params().size(); ++i) {
      const Param& p = m.params()[i];
      std::string text = "parameter int " + pad(p.name, w) + " = " + p.value +
                         (i + 1 < m.params().size() ? "," : "");
      os << "  " << (p.comment.empty() ? text : pad(text, tw + 1) + "  // " + p.comment) << "\n";
    }
    os << ")";
  }
  os << " (\n";
  size_t typeWidth = 0, nameWidth = 0;
  for (const Port& p : m.ports()) {
    typeWidth = std::max(typeWidth, typeText(p.type).size());
    nameWidth = std::max(nameWidth, p.name.size() + 1);
  }
  for (size_t i = 0; i < m.ports().size(); ++i) {
    const Port& p = m.ports()[i];
    if (!p.group.empty())
      writeComment(os, "  ", p.group);
    std::string text = std::string(p.dir == Dir::Input ? "input  " : "output ") +
                       pad(typeText(p.type), typeWidth) + " " + p.name +
                       (i + 1 < m.ports().size() ? "," : "");
    if (p.comment.empty()) {
      os << "  " << text << "\n";
    } else {
      std::string padded = pad(text, 7 + typeWidth + 1 + nameWidth);
      if (2 + padded.size() + 5 + p.comment.size() <= kLineLimit) {
        os << "  " << padded << "  // " << p.comment << "\n";
      } else {
        writeComment(os, "  ", p.comment);
        os << "  " << text << "\n";
      }
    }
  }
  os << ");\n\n";
  Printer(os).body(m.body(), 1);
  os << "\nendmodule\n";
  return os.str();
}

} // namespace by::vlog
