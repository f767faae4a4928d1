#pragma once
// An entry's document (ProseMirror/TipTap JSON, kb/document.h) as Markdown
// (CommonMark with GitHub's tables, task lists and strikethrough): what the
// MCP server hands an agent as text/markdown. Pure.
#include <string>
#include <string_view>

namespace credence::mcp {

// Headings, paragraphs, lists (bullet, ordered, task), block quotes, code
// blocks (with their language), rules, images, hard breaks and tables;
// marks bold, italic, strike, code and link. A node of another type gives
// its text. Text is escaped where Markdown would read it as syntax. A body
// that is not a document gives "" (stored entries always are).
std::string DocumentMarkdown(std::string_view document_json);

}  // namespace credence::mcp
