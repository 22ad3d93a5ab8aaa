#include "vlog/ir.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

namespace by::vlog {

std::string Type::range() const {
  if (width == "1")
    return "";
  bool numeric = !width.empty() && std::all_of(width.begin(), width.end(),
                                               [](char c) { return std::isdigit(c) != 0; });
  if (numeric)
    return "[" + std::to_string(std::stoll(width) - 1) + ":0]";
  return "[" + width + "-1:0]";
}

Stmts& Stmts::line(const std::string& statement) {
  lines_.emplace_back(0, statement);
  return *this;
}

Stmts& Stmts::comment(const std::string& text) {
  lines_.emplace_back(0, "// " + text);
  return *this;
}

void Stmts::append(const Stmts& inner, int extraIndent) {
  for (const auto& [indent, text] : inner.lines_)
    lines_.emplace_back(indent + extraIndent, text);
}

Stmts& Stmts::ifElse(const std::string& cond, const Fill& then, const Fill& otherwise) {
  Stmts t;
  then(t);
  lines_.emplace_back(0, "if (" + cond + ") begin");
  append(t, 1);
  if (otherwise) {
    Stmts e;
    otherwise(e);
    // Collapse "else begin if (...) ... end end" into "else if" chains for readability.
    bool chain = !e.lines_.empty() && e.lines_.front().first == 0 &&
                 e.lines_.front().second.rfind("if (", 0) == 0 && e.lines_.back().first == 0 &&
                 e.lines_.back().second == "end";
    for (size_t i = 1; chain && i + 1 < e.lines_.size(); ++i)
      if (e.lines_[i].first == 0 && e.lines_[i].second.rfind("end else", 0) != 0)
        chain = false;
    if (chain) {
      lines_.emplace_back(0, "end else " + e.lines_.front().second);
      for (size_t i = 1; i < e.lines_.size(); ++i)
        lines_.push_back(e.lines_[i]);
      return *this; // the chained if supplies the final "end"
    }
    lines_.emplace_back(0, "end else begin");
    append(e, 1);
  }
  lines_.emplace_back(0, "end");
  return *this;
}

Stmts& Stmts::caseOf(const std::string& subject,
                     const std::vector<std::pair<std::string, Fill>>& arms, const Fill& fallback) {
  return caseStatement("case", subject, arms, fallback);
}

Stmts& Stmts::uniqueCaseOf(const std::string& subject,
                           const std::vector<std::pair<std::string, Fill>>& arms,
                           const Fill& fallback) {
  return caseStatement("unique case", subject, arms, fallback);
}

Stmts& Stmts::caseStatement(const std::string& keyword, const std::string& subject,
                            const std::vector<std::pair<std::string, Fill>>& arms,
                            const Fill& fallback) {
  lines_.emplace_back(0, keyword + " (" + subject + ")");
  auto arm = [&](const std::string& label, const Fill& fill) {
    Stmts s;
    fill(s);
    if (s.lines_.size() == 1 && s.lines_.front().second.rfind("//", 0) != 0) {
      lines_.emplace_back(1, label + ": " + s.lines_.front().second);
    } else {
      lines_.emplace_back(1, label + ": begin");
      append(s, 2);
      lines_.emplace_back(1, "end");
    }
  };
  for (const auto& [label, fill] : arms)
    arm(label, fill);
  arm("default", fallback);
  lines_.emplace_back(0, "endcase");
  return *this;
}

Stmts& Stmts::forLoop(const std::string& var, const std::string& count, const Fill& body,
                      bool down) {
  Stmts b;
  body(b);
  if (down)
    lines_.emplace_back(0, "for (int " + var + " = " + count + " - 1; " + var + " >= 0; " + var +
                               "--) begin");
  else
    lines_.emplace_back(0, "for (int " + var + " = 0; " + var + " < " + count + "; " + var +
                               "++) begin");
  append(b, 1);
  lines_.emplace_back(0, "end");
  return *this;
}

void Body::localParam(const std::string& name, const std::string& value,
                      const std::string& comment) {
  items_.emplace_back(LocalParamItem{name, value, comment, "int"});
}

void Body::localParam(const std::string& name, Type type, const std::string& value,
                      const std::string& comment) {
  std::string t = "logic";
  if (type.isSigned)
    t += " signed";
  if (!type.range().empty())
    t += " " + type.range();
  items_.emplace_back(LocalParamItem{name, value, comment, t});
}

void Body::logic(const std::string& name, Type type, const std::string& comment) {
  items_.emplace_back(DeclItem{std::move(type), name, comment, "", ""});
}

void Body::logicArray(const std::string& name, Type type, const std::string& count,
                      const std::string& comment, const std::string& attribute) {
  items_.emplace_back(DeclItem{std::move(type), name, comment, count, attribute});
}

SeqItem& Body::sequential() {
  items_.emplace_back(SeqItem{});
  return std::get<SeqItem>(items_.back());
}

SeqItem& Body::clocked() {
  SeqItem& q = sequential();
  q.resetN.clear();
  return q;
}

void Body::assign(const std::string& lhs, const std::string& rhs, const std::string& comment) {
  items_.emplace_back(AssignItem{lhs, rhs, comment});
}

Stmts& Body::comb() {
  items_.emplace_back(CombItem{});
  return std::get<CombItem>(items_.back()).body;
}

Stmts& Body::function(const std::string& name, Type result,
                      std::vector<std::pair<std::string, Type>> args,
                      std::vector<std::pair<std::string, Type>> locals) {
  items_.emplace_back(
      FunctionItem{name, std::move(result), std::move(args), std::move(locals), {}});
  return std::get<FunctionItem>(items_.back()).body;
}

InstanceItem& Body::instance(const std::string& module, const std::string& name) {
  items_.emplace_back(InstanceItem{module, name, {}, {}, {}});
  return std::get<InstanceItem>(items_.back());
}

Body& Body::genFor(const std::string& genvar, const std::string& count, const std::string& label) {
  auto body = std::make_shared<Body>();
  items_.emplace_back(GenForItem{genvar, count, label, body});
  return *body;
}

std::pair<Body*, Body*> Body::genIf(const std::string& cond, const std::string& label,
                                    const std::string& elseLabel) {
  auto then = std::make_shared<Body>();
  std::shared_ptr<Body> otherwise = elseLabel.empty() ? nullptr : std::make_shared<Body>();
  items_.emplace_back(GenIfItem{cond, label, then, elseLabel, otherwise});
  return {then.get(), otherwise.get()};
}

Module::Module(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {}

void Module::param(const std::string& name, const std::string& value, const std::string& comment) {
  params_.push_back({name, value, comment});
}

void Module::addPort(Dir dir, const std::string& name, Type type, const std::string& comment) {
  ports_.push_back({dir, name, std::move(type), comment, pendingGroup_});
  pendingGroup_.clear();
}

void Module::input(const std::string& name, Type type, const std::string& comment) {
  addPort(Dir::Input, name, std::move(type), comment);
}

void Module::output(const std::string& name, Type type, const std::string& comment) {
  addPort(Dir::Output, name, std::move(type), comment);
}

void Module::clockAndReset() {
  input("clk_i", Type::bit(), "clock, rising edge");
  input("rst_ni", Type::bit(), "asynchronous reset, active low");
}

namespace {
void collectInstances(const Body& body, std::vector<std::string>& out) {
  for (const Item& item : body.items()) {
    if (const auto* inst = std::get_if<InstanceItem>(&item)) {
      if (std::find(out.begin(), out.end(), inst->module) == out.end())
        out.push_back(inst->module);
    } else if (const auto* loop = std::get_if<GenForItem>(&item)) {
      collectInstances(*loop->body, out);
    } else if (const auto* cond = std::get_if<GenIfItem>(&item)) {
      collectInstances(*cond->then, out);
      if (cond->otherwise)
        collectInstances(*cond->otherwise, out);
    }
  }
}
} // namespace

std::vector<std::string> Module::instantiatedModules() const {
  std::vector<std::string> out;
  collectInstances(body_, out);
  return out;
}

const Module* Design::find(const std::string& name) const {
  for (const Module& m : modules)
    if (m.name() == name)
      return &m;
  return nullptr;
}

namespace {

// Every instance of `parent` in `body` against the module it instantiates: each connection and
// parameter override names a port or parameter of the child, none twice, and every input of
// the child is connected (an unconnected input would float; outputs may be left open).
void checkInstances(const Design& d, const Module& parent, const Body& body) {
  for (const Item& item : body.items()) {
    if (const auto* loop = std::get_if<GenForItem>(&item)) {
      checkInstances(d, parent, *loop->body);
    } else if (const auto* cond = std::get_if<GenIfItem>(&item)) {
      checkInstances(d, parent, *cond->then);
      if (cond->otherwise)
        checkInstances(d, parent, *cond->otherwise);
    } else if (const auto* inst = std::get_if<InstanceItem>(&item)) {
      const Module* child = d.find(inst->module);
      if (!child)
        continue; // reported by dependencyOrder()
      auto fail = [&](const std::string& why) {
        throw std::logic_error("module '" + parent.name() + "', instance " + inst->name + " of " +
                               child->name() + ": " + why);
      };
      std::set<std::string> seen;
      for (const auto& [name, value] : inst->params) {
        const auto& ps = child->params();
        if (std::none_of(ps.begin(), ps.end(), [&](const Param& p) { return p.name == name; }))
          fail("'" + name + "' is not a parameter of " + child->name());
        if (!seen.insert("#" + name).second)
          fail("parameter '" + name + "' is set twice");
      }
      for (const auto& [name, signal] : inst->conns) {
        const auto& ports = child->ports();
        if (std::none_of(ports.begin(), ports.end(), [&](const Port& p) { return p.name == name; }))
          fail("'" + name + "' is not a port of " + child->name());
        if (!seen.insert(name).second)
          fail("port '" + name + "' is connected twice");
      }
      for (const Port& p : child->ports())
        if (p.dir == Dir::Input && !seen.count(p.name))
          fail("input '" + p.name + "' is not connected");
    }
  }
}

} // namespace

std::vector<const Module*> Design::dependencyOrder() const {
  for (const Module& m : modules)
    checkInstances(*this, m, m.body());
  std::vector<const Module*> order;
  std::set<std::string> done, active;
  std::function<void(const Module&)> visit = [&](const Module& m) {
    if (done.count(m.name()))
      return;
    if (active.count(m.name()))
      throw std::logic_error("module '" + m.name() + "' instantiates itself");
    active.insert(m.name());
    for (const std::string& child : m.instantiatedModules()) {
      const Module* c = find(child);
      if (!c)
        throw std::logic_error("module '" + m.name() + "' instantiates unknown module '" + child +
                               "'");
      visit(*c);
    }
    active.erase(m.name());
    done.insert(m.name());
    order.push_back(&m);
  };
  for (const Module& m : modules)
    visit(m);
  return order;
}

} // namespace by::vlog
