#include "kb/document.h"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <unordered_set>

#include "core/ids.h"
#include "core/json_numbers.h"
#include "core/json_parse.h"

namespace credence::kb {
namespace json = boost::json;
namespace {

// `top` is the block node itself: its attrs.blockId is left out, and an
// attrs object left empty by that is left out too (decisions.md 5).
void AppendCanonical(std::string& out, const json::value& v, bool top = false, bool in_attrs = false) {
  switch (v.kind()) {
    case json::kind::object: {
      const auto& o = v.get_object();
      std::vector<const json::key_value_pair*> members;
      members.reserve(o.size());
      for (const auto& kv : o) {
        if (in_attrs && kv.key() == "blockId") continue;
        if (top && kv.key() == "attrs" && kv.value().is_object()) {
          const auto& attrs = kv.value().get_object();
          if (attrs.empty() || (attrs.size() == 1 && attrs.contains("blockId"))) continue;
        }
        members.push_back(&kv);
      }
      std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->key() < b->key(); });
      out.push_back('{');
      for (size_t i = 0; i < members.size(); ++i) {
        if (i > 0) out.push_back(',');
        out += json::serialize(json::string(members[i]->key()));
        out.push_back(':');
        AppendCanonical(out, members[i]->value(), false, top && members[i]->key() == "attrs");
      }
      out.push_back('}');
      return;
    }
    case json::kind::array: {
      out.push_back('[');
      const auto& a = v.get_array();
      for (size_t i = 0; i < a.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendCanonical(out, a[i]);
      }
      out.push_back(']');
      return;
    }
    default:
      out += json::serialize(v);
  }
}

std::string HashOf(const json::value& node) {
  std::string canonical;
  canonical.reserve(256);
  AppendCanonical(canonical, node, /*top=*/true);
  return Sha256Hex(canonical);
}

void AppendText(std::string& out, const json::value& v) {
  if (const auto* o = v.if_object()) {
    if (const auto* text = o->if_contains("text"); text != nullptr && text->is_string()) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
      out += std::string_view(text->get_string());
    }
    if (const auto* content = o->if_contains("content"); content != nullptr && content->is_array())
      for (const auto& child : content->get_array()) AppendText(out, child);
  }
}

std::string BlockIdOf(const json::object& node) {
  const auto* attrs = node.if_contains("attrs");
  if (attrs == nullptr || !attrs->is_object()) return {};
  const auto* id = attrs->get_object().if_contains("blockId");
  if (id == nullptr || !id->is_string() || !IsUuid(id->get_string())) return {};
  return CanonicalUuid(id->get_string());
}

void SetBlockId(json::object& node, const std::string& id) {
  auto& attrs = node["attrs"];
  if (!attrs.is_object()) attrs = json::object{};
  attrs.get_object()["blockId"] = id;
}

// Parses the document shell; fills `nodes` with the top-level node objects.
Status ParseShell(std::string_view content, const std::string& field, json::value& doc) {
  const auto not_a_doc = [&](const std::string& why) {
    return Error::Validation({{field, "must be an editor document {\"type\":\"doc\",\"content\":[...]}: " + why}});
  };
  boost::system::error_code ec;
  doc = ParseJson(content, ec);
  if (ec) return not_a_doc("not valid JSON");
  if (!AllNumbersFinite(doc)) return not_a_doc("holds a number beyond the range of a double");
  auto* o = doc.if_object();
  if (o == nullptr) return not_a_doc("not a JSON object");
  const auto* type = o->if_contains("type");
  if (type == nullptr || !type->is_string() || type->get_string() != "doc") return not_a_doc("type is not \"doc\"");
  auto* nodes = o->if_contains("content");
  if (nodes == nullptr) {
    (*o)["content"] = json::array{};
    return Ok();
  }
  if (!nodes->is_array()) return not_a_doc("content is not an array");
  for (size_t i = 0; i < nodes->get_array().size(); ++i) {
    const auto& node = nodes->get_array()[i];
    if (!node.is_object() || !node.get_object().contains("type") || !node.get_object().at("type").is_string())
      return Error::Validation(
          {{field, "node " + std::to_string(i) + " of the document is not an editor node with a type"}});
  }
  return Ok();
}

Block MakeBlock(const json::value& node, const std::string& id, int position) {
  Block b;
  b.block_id = id;
  b.position = position;
  b.node_json = json::serialize(node);
  b.hash = HashOf(node);
  AppendText(b.text, node);
  return b;
}

}  // namespace

Result<ParsedDocument> ParseOriginal(std::string_view content, const std::string& field) {
  json::value doc;
  CR_TRY(ParseShell(content, field, doc));
  auto& nodes = doc.get_object()["content"].get_array();
  ParsedDocument out;
  out.blocks.reserve(nodes.size());
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < nodes.size(); ++i) {
    auto& node = nodes[i].get_object();
    std::string id = BlockIdOf(node);
    if (id.empty() || !seen.insert(id).second) {
      // Missing, malformed, or the second of two that share an id (a paste).
      id = NewId();
      seen.insert(id);
      SetBlockId(node, id);
    }
    out.blocks.push_back(MakeBlock(nodes[i], id, static_cast<int>(i)));
  }
  out.content = json::serialize(doc);
  return out;
}

Result<ParsedDocument> ParseTranslation(std::string_view content, const std::string& field,
                                        const std::unordered_map<std::string, int>& original_ids) {
  json::value doc;
  CR_TRY(ParseShell(content, field, doc));
  auto& nodes = doc.get_object()["content"].get_array();
  ParsedDocument out;
  std::vector<FieldError> errors;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& node = nodes[i].get_object();
    const std::string id = BlockIdOf(node);
    if (id.empty()) {
      errors.push_back({field, "node " + std::to_string(i) + " has no attrs.blockId of an original block"});
    } else if (!original_ids.count(id)) {
      errors.push_back({field, "block " + id + " is not a block of the original"});
    } else if (!seen.insert(id).second) {
      errors.push_back({field, "block " + id + " is translated twice"});
    } else {
      out.blocks.push_back(MakeBlock(nodes[i], id, original_ids.at(id)));
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  out.content = json::serialize(doc);
  return out;
}

std::string NodeText(std::string_view node_json) {
  boost::system::error_code ec;
  auto v = ParseJson(node_json, ec);
  std::string out;
  if (!ec) AppendText(out, v);
  return out;
}

std::string BlockHash(std::string_view node_json) {
  boost::system::error_code ec;
  return HashOf(ParseJson(node_json, ec));
}

std::string AssembleDocument(const std::vector<std::string_view>& node_jsons) {
  size_t size = 32;
  for (const auto& n : node_jsons) size += n.size() + 1;
  std::string out;
  out.reserve(size);
  out += "{\"type\":\"doc\",\"content\":[";
  for (size_t i = 0; i < node_jsons.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += node_jsons[i];
  }
  out += "]}";
  return out;
}

std::string AssembleDocument(const std::vector<std::string>& node_jsons) {
  std::string out = "{\"type\":\"doc\",\"content\":[";
  for (size_t i = 0; i < node_jsons.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += node_jsons[i];
  }
  out += "]}";
  return out;
}

std::string RemovedPlaceholderNode(const std::string& block_id) {
  return "{\"type\":\"paragraph\",\"attrs\":{\"blockId\":\"" + block_id +
         "\",\"removed\":true},\"content\":[{\"type\":\"text\",\"text\":\"" + std::string(kRemovedPlaceholder) +
         "\"}]}";
}

}  // namespace credence::kb
