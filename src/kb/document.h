#pragma once
// Editor documents and their blocks (decisions.md section 5). A document is
// ProseMirror/TipTap JSON serialized as a string:
//   {"type":"doc","content":[<top-level nodes>]}
// Each top-level node is a block, identified by attrs.blockId.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace credence::kb {

struct Block {
  std::string block_id;
  int position = 0;
  std::string hash;       // hex SHA-256 of the canonical node JSON without attrs.blockId
  std::string node_json;  // the node as stored, with attrs.blockId
  std::string text;       // plain text of the node, for search
};

struct ParsedDocument {
  std::vector<Block> blocks;
  std::string content;  // the document re-serialized with every blockId assigned
};

// Parses an original document: assigns a fresh UUID to a top-level node
// without a valid blockId and to the second of two nodes sharing one, and
// hashes every block. A body that is not such a document is a 400 naming
// `field`.
Result<ParsedDocument> ParseOriginal(std::string_view content, const std::string& field);

// Parses a translation: every top-level node must carry the blockId of a
// block of the original (listed in `original_ids`); otherwise 400.
Result<ParsedDocument> ParseTranslation(std::string_view content, const std::string& field,
                                        const std::unordered_map<std::string, int>& original_ids);

// The hash of a node: SHA-256 of its canonical JSON (keys sorted, no
// insignificant white space) with attrs.blockId left out, and an attrs
// object left empty by that removal dropped too.
std::string BlockHash(std::string_view node_json);

// The plain text of a node (its text leaves, space-separated).
std::string NodeText(std::string_view node_json);

// Assembles a document from nodes in order.
std::string AssembleDocument(const std::vector<std::string>& node_jsons);
std::string AssembleDocument(const std::vector<std::string_view>& node_jsons);

// The node readers see in place of a removed original block.
std::string RemovedPlaceholderNode(const std::string& block_id);

inline constexpr std::string_view kRemovedPlaceholder = "[Content removed]";

}  // namespace credence::kb
