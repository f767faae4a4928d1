// The MCP server's pure parts: the validation ladder that classifies a POST
// into a revision or the error its spec prescribes, and documents as
// Markdown. The server over the real store is tested through the binary
// (tests/mcp: the official SDK client and the MCP Inspector).
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "mcp/internal/protocol.h"
#include "mcp/markdown.h"

namespace credence::mcp {
namespace {
namespace json = boost::json;
using internal::Classify;
using internal::Era;
using internal::Message;
using internal::Rejection;

constexpr const char* kModernList =
    R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{)"
    R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";

Inbound Post(std::string_view body, std::optional<std::string_view> version = std::nullopt,
             std::optional<std::string_view> method = std::nullopt, std::optional<std::string_view> name = std::nullopt) {
  return Inbound{body, version, method, name};
}

int CodeOf(const std::variant<Message, Rejection>& r) {
  if (const auto* rejection = std::get_if<Rejection>(&r)) return rejection->code;
  return 0;
}

TEST(McpProtocol, InitializeIsTheLegacyHandshakeWithoutAHeader) {
  auto r = Classify(Post(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})"));
  ASSERT_TRUE(std::holds_alternative<Message>(r));
  EXPECT_EQ(std::get<Message>(r).era, Era::kLegacy);
  EXPECT_EQ(std::get<Message>(r).version, "2025-11-25");
}

TEST(McpProtocol, InitializeWithAModernHeaderIsAMismatch) {
  auto r = Classify(Post(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})",
                         "2026-07-28"));
  EXPECT_EQ(CodeOf(r), kHeaderMismatch);
}

TEST(McpProtocol, LegacyRequestsNameTheirRevisionInTheHeader) {
  const char* body = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
  EXPECT_EQ(std::get<Message>(Classify(Post(body, "2025-11-25"))).era, Era::kLegacy);
  // A stateless server assumes the one legacy revision it negotiates.
  EXPECT_EQ(std::get<Message>(Classify(Post(body))).version, "2025-11-25");
  auto old = Classify(Post(body, "2025-03-26"));
  ASSERT_EQ(CodeOf(old), kUnsupportedProtocolVersion);
  const auto& data = std::get<Rejection>(old).data.as_object();
  EXPECT_EQ(data.at("requested"), "2025-03-26");
  EXPECT_EQ(data.at("supported").as_array().size(), 2u);
}

TEST(McpProtocol, ModernRequestsCarryTheEnvelopeAndTheStandardHeaders) {
  auto ok = Classify(Post(kModernList, "2026-07-28", "tools/list"));
  ASSERT_TRUE(std::holds_alternative<Message>(ok));
  EXPECT_EQ(std::get<Message>(ok).era, Era::kModern);
  EXPECT_EQ(CodeOf(Classify(Post(kModernList, std::nullopt, "tools/list"))), kHeaderMismatch);
  EXPECT_EQ(CodeOf(Classify(Post(kModernList, "2026-07-28"))), kHeaderMismatch);
  EXPECT_EQ(CodeOf(Classify(Post(kModernList, "2026-07-28", "tools/call"))), kHeaderMismatch);
  EXPECT_EQ(CodeOf(Classify(Post(kModernList, "2025-11-25", "tools/list"))), kHeaderMismatch);
}

TEST(McpProtocol, AModernHeaderWithoutAnEnvelopeIsInvalidParams) {
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", "2026-07-28", "tools/list"))),
            kInvalidParams);
}

TEST(McpProtocol, AnUnknownModernRevisionListsTheSupportedOnes) {
  std::string body = kModernList;
  body.replace(body.find("2026-07-28"), 10, "2099-01-01");
  auto r = Classify(Post(body, "2099-01-01", "tools/list"));
  ASSERT_EQ(CodeOf(r), kUnsupportedProtocolVersion);
  EXPECT_EQ(std::get<Rejection>(r).data.as_object().at("supported").as_array().front(), "2026-07-28");
}

TEST(McpProtocol, McpNameMustMirrorTheToolName) {
  const char* call =
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_entry","arguments":{},"_meta":{)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
  EXPECT_TRUE(std::holds_alternative<Message>(Classify(Post(call, "2026-07-28", "tools/call", "read_entry"))));
  // The Base64 sentinel of "read_entry".
  EXPECT_TRUE(std::holds_alternative<Message>(
      Classify(Post(call, "2026-07-28", "tools/call", "=?base64?cmVhZF9lbnRyeQ==?="))));
  EXPECT_EQ(CodeOf(Classify(Post(call, "2026-07-28", "tools/call"))), kHeaderMismatch);
  EXPECT_EQ(CodeOf(Classify(Post(call, "2026-07-28", "tools/call", "search_knowledge"))), kHeaderMismatch);
  EXPECT_EQ(CodeOf(Classify(Post(call, "2026-07-28", "tools/call", "=?base64?***?="))), kHeaderMismatch);
}

TEST(McpProtocol, MalformedBodies) {
  EXPECT_EQ(CodeOf(Classify(Post("{"))), kParseError);
  EXPECT_EQ(CodeOf(Classify(Post(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"))), kInvalidRequest);
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"1.0","id":1,"method":"ping"})"))), kInvalidRequest);
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"))), kInvalidRequest);
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"2.0","id":1,"result":{}})"))), kInvalidRequest);
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})"))), kInvalidRequest);
  // A malformed envelope behind a claim is refused, never served as legacy.
  EXPECT_EQ(CodeOf(Classify(Post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{)"
                                 R"("io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})",
                                 "2026-07-28", "tools/list"))),
            kInvalidParams);
}

TEST(McpProtocol, NotificationsNeedNoStandardHeaders) {
  auto r = Classify(Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  ASSERT_TRUE(std::holds_alternative<Message>(r));
  EXPECT_TRUE(std::get<Message>(r).notification);
}

TEST(McpMarkdown, BlocksAndMarks) {
  const std::string doc = R"({"type":"doc","content":[
    {"type":"heading","attrs":{"level":2},"content":[{"type":"text","text":"Expenses"}]},
    {"type":"paragraph","content":[{"type":"text","text":"Claim "},{"type":"text","marks":[{"type":"bold"}],"text":"within 30 days"},
      {"type":"text","text":", see "},{"type":"text","marks":[{"type":"link","attrs":{"href":"https://x.example/p"}}],"text":"policy"},
      {"type":"text","text":" (a*b)."}]},
    {"type":"bulletList","content":[
      {"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"Taxis"}]}]},
      {"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"Meals"}]},
        {"type":"orderedList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"Lunch"}]}]}]}]}]},
    {"type":"codeBlock","attrs":{"language":"sh"},"content":[{"type":"text","text":"claim --all"}]},
    {"type":"blockquote","content":[{"type":"paragraph","content":[{"type":"text","text":"Quoted"}]}]},
    {"type":"table","content":[
      {"type":"tableRow","content":[{"type":"tableHeader","content":[{"type":"paragraph","content":[{"type":"text","text":"Item"}]}]},
                                    {"type":"tableHeader","content":[{"type":"paragraph","content":[{"type":"text","text":"Limit"}]}]}]},
      {"type":"tableRow","content":[{"type":"tableCell","content":[{"type":"paragraph","content":[{"type":"text","text":"Hotel"}]}]},
                                    {"type":"tableCell","content":[{"type":"paragraph","content":[{"type":"text","text":"150"}]}]}]}]}
  ]})";
  EXPECT_EQ(DocumentMarkdown(doc),
            "## Expenses\n"
            "\n"
            "Claim **within 30 days**, see [policy](https://x.example/p) (a\\*b).\n"
            "\n"
            "- Taxis\n"
            "- Meals\n"
            "  1. Lunch\n"
            "\n"
            "```sh\n"
            "claim --all\n"
            "```\n"
            "\n"
            "> Quoted\n"
            "\n"
            "| Item | Limit |\n"
            "| --- | --- |\n"
            "| Hotel | 150 |\n");
}

TEST(McpMarkdown, TextThatWouldStartABlockIsEscaped) {
  EXPECT_EQ(DocumentMarkdown(R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"# not a heading"}]},)"
                             R"({"type":"paragraph","content":[{"type":"text","text":"1. not a list"}]}]})"),
            "\\# not a heading\n\n1\\. not a list\n");
  EXPECT_EQ(DocumentMarkdown("not json"), "");
}

}  // namespace
}  // namespace credence::mcp
