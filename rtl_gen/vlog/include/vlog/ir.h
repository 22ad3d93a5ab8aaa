// A small structural IR for SystemVerilog modules: ports, parameters, declarations,
// continuous assignments, always_comb / always_ff blocks, instances and generate loops.
// Expressions are SystemVerilog text built by the generators; the IR owns the structure
// (what is declared where, how blocks nest) and the printer owns the layout (alignment,
// indentation, headers), so no generator formats Verilog by hand.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace by::vlog {

/// A packed logic type: a width expression (a number or a constant expression of parameters),
/// or a named type of the module (an enum declared with EnumItem).
struct Type {
  std::string width = "1";
  bool isSigned = false;
  std::string name; // a named type (e.g. state_e): printed instead of logic [..]

  static Type bit() { return {}; }
  static Type bits(int n) { return {std::to_string(n), false, ""}; }
  static Type bits(std::string expr) { return {std::move(expr), false, ""}; }
  static Type sbits(std::string expr) { return {std::move(expr), true, ""}; }
  static Type sbits(int n) { return {std::to_string(n), true, ""}; }
  static Type named(std::string typeName) { return {"", false, std::move(typeName)}; }

  /// "[7:0]", "[Width-1:0]" or "" for a single bit.
  std::string range() const;
};

enum class Dir { Input, Output };

struct Port {
  Dir dir = Dir::Input;
  std::string name;
  Type type;
  std::string comment;
  std::string group; // a comment line printed before the first port of a new group
};

struct Param {
  std::string name;
  std::string value;
  std::string comment;
};

/// Procedural statements of an always block, built with structure (if/case/for nesting).
class Stmts {
public:
  using Fill = std::function<void(Stmts&)>;

  Stmts& line(const std::string& statement); // a complete statement, including ';'
  Stmts& comment(const std::string& text);
  Stmts& ifElse(const std::string& cond, const Fill& then, const Fill& otherwise = {});
  Stmts& caseOf(const std::string& subject, const std::vector<std::pair<std::string, Fill>>& arms,
                const Fill& fallback);
  /// `unique case`: the arms' labels never overlap (distinct constants), so synthesis may
  /// build a parallel mux; a default arm is still required.
  Stmts& uniqueCaseOf(const std::string& subject,
                      const std::vector<std::pair<std::string, Fill>>& arms, const Fill& fallback);
  /// for (int var = 0; var < count; var++), or from count-1 down to 0 when `down`.
  Stmts& forLoop(const std::string& var, const std::string& count, const Fill& body,
                 bool down = false);

  const std::vector<std::pair<int, std::string>>& lines() const { return lines_; }

private:
  void append(const Stmts& inner, int extraIndent);
  Stmts& caseStatement(const std::string& keyword, const std::string& subject,
                       const std::vector<std::pair<std::string, Fill>>& arms, const Fill& fallback);
  std::vector<std::pair<int, std::string>> lines_; // (indent level, text)
};

class Body;

struct CommentItem {
  std::string text;
};
struct BlankItem {};
struct LocalParamItem {
  std::string name;
  std::string value;
  std::string comment;
  std::string type = "int"; // or a packed type, e.g. "logic [7:0]"
};
struct DeclItem {
  Type type;
  std::string name;
  std::string comment;
  std::string unpacked;  // element count of an unpacked array ("" for a plain vector)
  std::string attribute; // e.g. "mem2reg": printed as (* mem2reg *)
};
/// `typedef enum logic [width-1:0] {...} typeName;` with the values numbered 0, 1, ... in
/// order (UpperCamelCase names, a comment each). Variables of the type are declared with
/// Type::named(typeName), or listed here.
struct EnumItem {
  std::string typeName; // e.g. state_e
  int width = 1;
  std::vector<std::pair<std::string, std::string>> values; // (name, comment)
  std::vector<std::string> variables;                      // e.g. state_d, state_q
};
struct AssignItem {
  std::string lhs;
  std::string rhs;
  std::string comment;
};
struct CombItem {
  Stmts body;
};
/// One register: q <= d, optionally with a reset value and a load enable.
struct Flop {
  Flop(std::string q_, std::string d_, std::string reset = "", std::string elements = "")
      : q(std::move(q_)), d(std::move(d_)), resetValue(std::move(reset)),
        count(std::move(elements)) {}
  std::string q;
  std::string d;
  std::string resetValue; // empty: no reset (datapath register)
  std::string count;      // an unpacked array of `count` elements, loaded element by element
};
struct FlopsItem {
  FlopsItem(std::vector<Flop> registers, std::string loadEnable = "")
      : flops(std::move(registers)), enable(std::move(loadEnable)) {}
  std::vector<Flop> flops;
  std::string enable; // empty: always load
  std::string clock = "clk_i";
  std::string resetN = "rst_ni";
};
/// An always_ff block with free-form statements: `reset` runs while rst_ni is low, `clocked`
/// on every rising clock edge otherwise (for registers that FlopsItem cannot express, such as
/// arrays shifted in a loop).
struct SeqItem {
  Stmts reset;
  Stmts clocked;
  std::string clock = "clk_i";
  std::string resetN = "rst_ni";
};
/// `function automatic <result> name(input <args>)`: its local variables and statements that
/// assign the result to `name`. For logic only a clocked block's enabled branch needs: synthesis
/// reads the same gates as a continuous assign, but a Verilated model computes a call only when
/// the branch runs, where it computes an assign on every evaluation.
struct FunctionItem {
  std::string name;
  Type result;
  std::vector<std::pair<std::string, Type>> args; // (name, type), all inputs
  std::vector<std::pair<std::string, Type>> locals;
  Stmts body;
};
struct InstanceItem {
  std::string module;
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::pair<std::string, std::string>> conns;
  std::string comment;
};
struct GenForItem {
  std::string genvar;
  std::string count; // loop runs genvar = 0 .. count-1
  std::string label; // gen_*
  std::shared_ptr<Body> body;
};
struct GenIfItem {
  std::string cond;
  std::string label;
  std::shared_ptr<Body> then;
  std::string elseLabel;
  std::shared_ptr<Body> otherwise; // may be null
};

using Item =
    std::variant<CommentItem, BlankItem, LocalParamItem, DeclItem, EnumItem, AssignItem, CombItem,
                 FlopsItem, SeqItem, FunctionItem, InstanceItem, GenForItem, GenIfItem>;

/// An ordered list of module items; generate blocks nest Bodies.
class Body {
public:
  void comment(const std::string& text) { items_.emplace_back(CommentItem{text}); }
  void blank() { items_.emplace_back(BlankItem{}); }
  void localParam(const std::string& name, const std::string& value,
                  const std::string& comment = "");
  /// A localparam of a packed type (e.g. an 8-bit code), so uses need no casts.
  void localParam(const std::string& name, Type type, const std::string& value,
                  const std::string& comment = "");
  void logic(const std::string& name, Type type, const std::string& comment = "");
  /// An unpacked array `logic [W-1:0] name [count]`, with an optional attribute.
  void logicArray(const std::string& name, Type type, const std::string& count,
                  const std::string& comment = "", const std::string& attribute = "");
  void enumType(EnumItem item) { items_.emplace_back(std::move(item)); }
  void assign(const std::string& lhs, const std::string& rhs, const std::string& comment = "");
  Stmts& comb();
  void flops(FlopsItem item) { items_.emplace_back(std::move(item)); }
  SeqItem& sequential();
  /// An always_ff block without reset (memories, datapath registers).
  SeqItem& clocked();
  /// A function (FunctionItem); returns its body to fill.
  Stmts& function(const std::string& name, Type result,
                  std::vector<std::pair<std::string, Type>> args,
                  std::vector<std::pair<std::string, Type>> locals = {});
  InstanceItem& instance(const std::string& module, const std::string& name);
  Body& genFor(const std::string& genvar, const std::string& count, const std::string& label);
  /// Returns {then, else}; else is null when elseLabel is empty.
  std::pair<Body*, Body*> genIf(const std::string& cond, const std::string& label,
                                const std::string& elseLabel = "");

  const std::deque<Item>& items() const { return items_; }

private:
  // A deque: references returned by sequential(), comb(), instance()... stay valid while
  // more items are added (a generator may fill a block after declaring further signals).
  std::deque<Item> items_;
};

/// A SystemVerilog module. Created by a generator, printed by printModule().
class Module {
public:
  Module(std::string name, std::string description);

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }

  void param(const std::string& name, const std::string& value, const std::string& comment = "");
  void input(const std::string& name, Type type, const std::string& comment = "");
  void output(const std::string& name, Type type, const std::string& comment = "");
  /// Starts a new port group; the comment is printed above the group's first port.
  void portGroup(const std::string& comment) { pendingGroup_ = comment; }
  /// Adds clk_i and rst_ni (active-low asynchronous reset), the first ports by convention.
  void clockAndReset();

  Body& body() { return body_; }
  const Body& body() const { return body_; }
  const std::vector<Param>& params() const { return params_; }
  const std::vector<Port>& ports() const { return ports_; }

  /// Modules this one instantiates (direct children), in first-use order.
  std::vector<std::string> instantiatedModules() const;

private:
  void addPort(Dir dir, const std::string& name, Type type, const std::string& comment);

  std::string name_;
  std::string description_;
  std::vector<Param> params_;
  std::vector<Port> ports_;
  std::string pendingGroup_;
  Body body_;
};

/// All modules of one generated design plus which one is the top.
struct Design {
  std::vector<Module> modules;
  std::string top;

  const Module* find(const std::string& name) const;
  /// Modules ordered so that every module comes after the modules it instantiates. Checks the
  /// instances first: an unknown module, a connection or parameter that is not a port or
  /// parameter of the child, one made twice, or an input left unconnected throws
  /// std::logic_error.
  std::vector<const Module*> dependencyOrder() const;
};

} // namespace by::vlog
