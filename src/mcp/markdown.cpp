#include "mcp/markdown.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace credence::mcp {
namespace json = boost::json;

namespace {

std::string_view TypeOf(const json::object& node) {
  const auto* t = node.if_contains("type");
  return t != nullptr && t->is_string() ? std::string_view(t->get_string()) : std::string_view();
}

const json::array* ChildrenOf(const json::object& node) {
  const auto* c = node.if_contains("content");
  return c != nullptr && c->is_array() ? &c->get_array() : nullptr;
}

std::string AttrString(const json::object& node, std::string_view name) {
  const auto* attrs = node.if_contains("attrs");
  if (attrs == nullptr || !attrs->is_object()) return {};
  const auto* v = attrs->get_object().if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

int64_t AttrInt(const json::object& node, std::string_view name, int64_t fallback) {
  const auto* attrs = node.if_contains("attrs");
  if (attrs == nullptr || !attrs->is_object()) return fallback;
  const auto* v = attrs->get_object().if_contains(name);
  if (v == nullptr) return fallback;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  if (v->is_double()) return static_cast<int64_t>(v->get_double());
  return fallback;
}

bool AttrBool(const json::object& node, std::string_view name) {
  const auto* attrs = node.if_contains("attrs");
  if (attrs == nullptr || !attrs->is_object()) return false;
  const auto* v = attrs->get_object().if_contains(name);
  return v != nullptr && v->is_bool() && v->get_bool();
}

// Characters CommonMark could read as inline syntax are escaped; so are a
// leading '#', '>', '-', '+' or a digit run with '.', which would start a
// block when the text begins a line.
std::string Escape(std::string_view text, bool line_start) {
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>': case '|': case '~':
        out += '\\';
        break;
      case '#': case '-': case '+':
        if (line_start && out.empty()) out += '\\';
        break;
      default:
        break;
    }
    out += c;
  }
  if (line_start && !out.empty() && out[0] >= '0' && out[0] <= '9') {
    size_t d = 0;
    while (d < out.size() && out[d] >= '0' && out[d] <= '9') ++d;
    if (d < out.size() && (out[d] == '.' || out[d] == ')')) out.insert(d, "\\");
  }
  return out;
}

class Writer {
 public:
  std::string Document(const json::object& doc) {
    if (const auto* children = ChildrenOf(doc)) Blocks(*children, "");
    while (!out_.empty() && out_.back() == '\n') out_.pop_back();
    if (!out_.empty()) out_ += '\n';
    return std::move(out_);
  }

 private:
  // Blocks separated by blank lines; `prefix` starts every line (quotes,
  // list indentation).
  void Blocks(const json::array& nodes, const std::string& prefix) {
    bool first = true;
    for (const auto& n : nodes) {
      if (!n.is_object()) continue;
      if (!first) out_ += TrimRight(prefix) + "\n";
      Block(n.get_object(), prefix, prefix);
      first = false;
    }
  }

  static std::string TrimRight(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  // One block: its first line starts with `first`, later lines with `rest`.
  void Block(const json::object& node, const std::string& first, const std::string& rest) {
    const std::string_view type = TypeOf(node);
    if (type == "heading") {
      const int64_t level = std::clamp<int64_t>(AttrInt(node, "level", 1), 1, 6);
      Line(first + std::string(static_cast<size_t>(level), '#') + " " + Inline(node, false), rest);
    } else if (type == "bulletList" || type == "orderedList" || type == "taskList") {
      List(node, type, first, rest);
    } else if (type == "blockquote") {
      const auto* children = ChildrenOf(node);
      bool first_block = true;
      if (children != nullptr)
        for (const auto& c : *children) {
          if (!c.is_object()) continue;
          if (!first_block) out_ += rest + ">\n";
          Block(c.get_object(), first_block ? first + "> " : rest + "> ", rest + "> ");
          first_block = false;
        }
      if (first_block) Line(first + ">", rest);
    } else if (type == "codeBlock") {
      std::string code;
      if (const auto* children = ChildrenOf(node))
        for (const auto& c : *children)
          if (c.is_object())
            if (const auto* t = c.get_object().if_contains("text"); t && t->is_string()) code += t->get_string();
      // A fence longer than any backtick run inside the code.
      size_t longest = 0, run = 0;
      for (char c : code) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
      const std::string fence(std::max<size_t>(3, longest + 1), '`');
      out_ += first + fence + AttrString(node, "language") + "\n";
      size_t start = 0;
      while (start <= code.size()) {
        const size_t end = code.find('\n', start);
        out_ += rest + code.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
        if (end == std::string::npos) break;
        start = end + 1;
      }
      out_ += rest + fence + "\n";
    } else if (type == "horizontalRule") {
      Line(first + "---", rest);
    } else if (type == "table") {
      Table(node, first, rest);
    } else if (type == "image") {
      Line(first + "![" + Escape(AttrString(node, "alt"), false) + "](" + AttrString(node, "src") + ")", rest);
    } else {
      // paragraph, and any node of another type: its inline content.
      Line(first + Inline(node, true), rest);
    }
  }

  // Text of several lines (hard breaks): each later line gets `rest`.
  void Line(const std::string& text, const std::string& rest) {
    size_t start = 0;
    bool first = true;
    while (true) {
      const size_t end = text.find('\n', start);
      if (!first) out_ += rest;
      out_ += text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      out_ += '\n';
      if (end == std::string::npos) break;
      start = end + 1;
      first = false;
    }
  }

  void List(const json::object& node, std::string_view type, const std::string& first, const std::string& rest) {
    const auto* items = ChildrenOf(node);
    if (items == nullptr) return;
    int64_t number = AttrInt(node, "start", 1);
    bool first_item = true;
    for (const auto& item : *items) {
      if (!item.is_object()) continue;
      const json::object& li = item.get_object();
      std::string marker = type == "orderedList" ? std::to_string(number++) + ". " : "- ";
      if (type == "taskList") marker += AttrBool(li, "checked") ? "[x] " : "[ ] ";
      const std::string item_first = (first_item ? first : rest) + marker;
      const std::string item_rest = rest + std::string(type == "orderedList" ? marker.size() : 2, ' ');
      first_item = false;
      const auto* blocks = ChildrenOf(li);
      if (blocks == nullptr || blocks->empty()) {
        out_ += TrimRight(item_first) + "\n";
        continue;
      }
      bool first_block = true;
      for (const auto& b : *blocks) {
        if (!b.is_object()) continue;
        if (!first_block && TypeOf(b.get_object()) != "bulletList" && TypeOf(b.get_object()) != "orderedList" &&
            TypeOf(b.get_object()) != "taskList")
          out_ += TrimRight(item_rest) + "\n";
        Block(b.get_object(), first_block ? item_first : item_rest, item_rest);
        first_block = false;
      }
    }
  }

  void Table(const json::object& node, const std::string& first, const std::string& rest) {
    std::vector<std::vector<std::string>> rows;
    const auto* trs = ChildrenOf(node);
    if (trs == nullptr) return;
    size_t columns = 0;
    for (const auto& tr : *trs) {
      if (!tr.is_object()) continue;
      std::vector<std::string> cells;
      if (const auto* tds = ChildrenOf(tr.get_object()))
        for (const auto& td : *tds) {
          if (!td.is_object()) continue;
          std::string cell;
          if (const auto* paras = ChildrenOf(td.get_object()))
            for (const auto& p : *paras) {
              if (!p.is_object()) continue;
              if (!cell.empty()) cell += "<br>";
              std::string text = Inline(p.get_object(), false);
              for (char& c : text)
                if (c == '\n') c = ' ';
              cell += text;
            }
          cells.push_back(std::move(cell));
        }
      columns = std::max(columns, cells.size());
      rows.push_back(std::move(cells));
    }
    if (rows.empty() || columns == 0) return;
    auto row_line = [&](const std::vector<std::string>& cells) {
      std::string line = "|";
      for (size_t i = 0; i < columns; ++i) line += " " + (i < cells.size() ? cells[i] : std::string()) + " |";
      return line;
    };
    out_ += first + row_line(rows[0]) + "\n";
    std::string rule = "|";
    for (size_t i = 0; i < columns; ++i) rule += " --- |";
    out_ += rest + rule + "\n";
    for (size_t r = 1; r < rows.size(); ++r) out_ += rest + row_line(rows[r]) + "\n";
  }

  // The inline content of a block: text with its marks, hard breaks as
  // line ends.
  std::string Inline(const json::object& node, bool line_start) {
    std::string out;
    const auto* children = ChildrenOf(node);
    if (children == nullptr) return out;
    for (const auto& c : *children) {
      if (!c.is_object()) continue;
      const json::object& child = c.get_object();
      const std::string_view type = TypeOf(child);
      if (type == "hardBreak") {
        out += "  \n";
        continue;
      }
      if (type == "image") {
        out += "![" + Escape(AttrString(child, "alt"), false) + "](" + AttrString(child, "src") + ")";
        continue;
      }
      if (type != "text") {
        out += Inline(child, line_start && out.empty());
        continue;
      }
      const auto* t = child.if_contains("text");
      if (t == nullptr || !t->is_string()) continue;
      std::string text;
      bool code = false;
      std::string open, close, href;
      if (const auto* marks = child.if_contains("marks"); marks && marks->is_array()) {
        for (const auto& m : marks->get_array()) {
          if (!m.is_object()) continue;
          const std::string_view mark = TypeOf(m.get_object());
          if (mark == "code") code = true;
          if (mark == "bold" || mark == "strong") open += "**", close.insert(0, "**");
          if (mark == "italic" || mark == "em") open += "*", close.insert(0, "*");
          if (mark == "strike") open += "~~", close.insert(0, "~~");
          if (mark == "link") href = AttrString(m.get_object(), "href");
        }
      }
      const std::string_view raw = t->get_string();
      if (code) {
        const std::string tick = raw.find('`') == std::string_view::npos ? "`" : "``";
        text = tick + (tick.size() > 1 ? " " : "") + std::string(raw) + (tick.size() > 1 ? " " : "") + tick;
      } else {
        text = Escape(raw, line_start && out.empty());
      }
      text = open + text + close;
      if (!href.empty()) text = "[" + text + "](" + href + ")";
      out += text;
    }
    return out;
  }

  std::string out_;
};

}  // namespace

std::string DocumentMarkdown(std::string_view document_json) {
  boost::system::error_code ec;
  json::value doc = json::parse(document_json, ec);
  if (ec || !doc.is_object()) return {};
  return Writer().Document(doc.get_object());
}

}  // namespace credence::mcp
