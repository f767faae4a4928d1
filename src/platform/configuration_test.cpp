// The pure parts of tenant configuration: block classification, the style
// check (offsets in UTF-16 units, word boundaries), literal search, the XML
// reader's refusals, and the glossary CSV and TBX formats.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "platform/block_heuristics.h"
#include "platform/glossaries.h"
#include "platform/internal/text_match.h"
#include "platform/internal/xml_reader.h"
#include "platform/style_rules.h"

namespace credence::platform {
namespace {

std::string Paragraph(const std::string& id, const std::string& type, const std::string& text) {
  return R"({"type":")" + type + R"(","attrs":{"blockId":")" + id + R"("},"content":[{"type":"text","text":")" + text +
         R"("}]})";
}

TEST(ClassifyBlocks, FirstEnabledRuleByPriorityWins) {
  BlockHeuristic any_note{.id = "h1",
                          .name = "note",
                          .block_class = "note",
                          .node_types = {"paragraph"},
                          .text_pattern = TextPattern{TextMatch::kPrefix, "note:", false},
                          .priority = 50};
  BlockHeuristic warning{.id = "h2",
                         .name = "warning",
                         .block_class = "warning",
                         .node_types = {},
                         .text_pattern = TextPattern{TextMatch::kContains, "Danger", true},
                         .priority = 10,
                         .translation = BlockTranslation::kProtect};
  BlockHeuristic off{
      .id = "h3", .name = "off", .block_class = "off", .node_types = {"paragraph"}, .priority = 0, .is_enabled = false};
  const std::string doc = R"({"type":"doc","content":[)" + Paragraph("a", "paragraph", "NOTE: Danger ahead") + "," +
                          Paragraph("b", "paragraph", "note: danger") + "," + Paragraph("c", "heading", "Danger") +
                          "," + Paragraph("d", "paragraph", "plain") + "]}";
  auto out = ClassifyBlocks({any_note, warning, off}, doc, "content");
  ASSERT_TRUE(out) << out.error().detail;
  ASSERT_EQ(out->size(), 4u);
  EXPECT_EQ((*out)[0].block_class, "warning");  // priority 10 before 50
  EXPECT_EQ((*out)[0].translation, BlockTranslation::kProtect);
  EXPECT_EQ((*out)[1].block_class, "note");     // "Danger" is case-sensitive
  EXPECT_EQ((*out)[2].block_class, "warning");  // any node type
  EXPECT_EQ((*out)[2].node_type, "heading");
  EXPECT_FALSE((*out)[3].block_class.has_value());
  EXPECT_FALSE(ClassifyBlocks({}, "not json", "content"));
}

TEST(HeuristicMatches, ExactAndPrefixIgnoreSurroundingSpace) {
  BlockHeuristic exact{.block_class = "x", .text_pattern = TextPattern{TextMatch::kExact, "TL;DR", false}};
  EXPECT_TRUE(HeuristicMatches(exact, "paragraph", "  tl;dr \n"));
  EXPECT_FALSE(HeuristicMatches(exact, "paragraph", "tl;dr more"));
}

TEST(CheckStyle, OffsetsAreUtf16AndWordsAreWhole) {
  StyleRule avoid{.id = "r1",
                  .name = "a",
                  .language = "en",
                  .type = StyleRuleType::kAvoid,
                  .term = "colour",
                  .suggestion = "color"};
  StyleRule prefer{.id = "r2",
                   .name = "b",
                   .language = "en",
                   .type = StyleRuleType::kPrefer,
                   .term = "e-mail",
                   .alternatives = {"email"},
                   .case_sensitive = true};
  const std::string text =
      "\xF0\x9F\x98\x80 Colour, colours, \xC3\xA9"
      "colour, Email email";
  auto m = CheckStyle({avoid, prefer}, {{std::nullopt, text}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].rule_id, "r1");
  EXPECT_EQ(m[0].offset, 3u);  // the emoji is two units, then a space
  EXPECT_EQ(m[0].length, 6u);
  EXPECT_EQ(m[0].matched_text, "Colour");
  EXPECT_EQ(m[0].suggestion, "color");
  EXPECT_EQ(m[1].rule_id, "r2");  // "Email" differs in case; "email" matches
  EXPECT_EQ(m[1].matched_text, "email");
  EXPECT_EQ(m[1].suggestion, "e-mail");
}

TEST(FindAll, NonOverlappingAndBounded) {
  EXPECT_EQ(internal::FindAll("aaaa", "aa", false, 10), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(internal::FindAll("aaaa", "aa", false, 1), (std::vector<size_t>{0}));
  EXPECT_TRUE(internal::FindAll("abc", "", false, 10).empty());
  EXPECT_EQ(internal::FindAll("a-b a", "a", true, 10), (std::vector<size_t>{0, 4}));
  EXPECT_EQ(internal::Utf16Length("\xC3\xA9\xF0\x9F\x98\x80x"), 4u);
}

TEST(ParseXml, RefusesDtdsAndUnknownEntitiesAndBoundsDepth) {
  EXPECT_FALSE(internal::ParseXml("<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>"));
  EXPECT_FALSE(internal::ParseXml("<a>&e;</a>"));
  EXPECT_FALSE(internal::ParseXml("<a><b></a></b>"));
  std::string deep;
  for (int i = 0; i < 65; ++i) deep += "<a>";
  for (int i = 0; i < 65; ++i) deep += "</a>";
  EXPECT_FALSE(internal::ParseXml(deep));
  EXPECT_FALSE(internal::ParseXml("<a/>", {.max_bytes = 3}));
  auto ok =
      internal::ParseXml("<?xml version=\"1.0\"?><x:a q='1' xml:lang=\"de\">t&lt;<![CDATA[<&>]]><b/>&#x1F600;</x:a>");
  ASSERT_TRUE(ok) << ok.error().detail;
  EXPECT_EQ(ok->name, "a");
  EXPECT_EQ(*ok->Attribute("xml:lang"), "de");
  EXPECT_EQ(ok->text, "t<<&>\xF0\x9F\x98\x80");
}

TEST(GlossaryCsv, RoundTripsQuotesNewlinesAndFormulas) {
  std::vector<GlossaryTerm> terms = {{"a,b", "\"q\"", true, "line\r\nbreak"}, {"=1+1", "-x", false, std::nullopt}};
  const std::string csv = WriteGlossaryCsv(terms);
  auto back = ParseGlossaryCsv(csv);
  ASSERT_TRUE(back) << back.error().detail;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].source, "a,b");
  EXPECT_EQ((*back)[0].target, "\"q\"");
  EXPECT_TRUE((*back)[0].case_sensitive);
  EXPECT_EQ((*back)[0].notes, "line\r\nbreak");
  EXPECT_EQ((*back)[1].source, "=1+1");
  EXPECT_EQ((*back)[1].target, "-x");
  EXPECT_FALSE((*back)[1].notes.has_value());
}

TEST(GlossaryTbx, WrittenDocumentsParseBack) {
  Glossary g{
      .name = "<G>", .source_language = "en", .target_language = "pt-BR", .terms = {{"a & b", "c < d", false, "n"}}};
  auto back = ParseGlossaryTbx(WriteGlossaryTbx(g), "en", "pt-BR");
  ASSERT_TRUE(back) << back.error().detail;
  ASSERT_EQ(back->terms.size(), 1u);
  EXPECT_EQ(back->terms[0].source, "a & b");
  EXPECT_EQ(back->terms[0].target, "c < d");
  EXPECT_EQ(back->terms[0].notes, "n");
  EXPECT_FALSE(ParseGlossaryTbx("<html/>", "en", "de"));
}

// Arbitrary bytes, and mutations of valid documents, are answered (a value
// or an error), never a crash or a hang.
TEST(ImportParsers, SurviveArbitraryInput) {
  std::mt19937 rng(14);
  const std::string tbx = WriteGlossaryTbx(
      Glossary{.name = "g", .source_language = "en", .target_language = "de", .terms = {{"a", "b", false, "n"}}});
  const std::string csv = WriteGlossaryCsv({{"a,\"b", "c", true, "d\ne"}});
  const std::string alphabet = "<>/=\"'&;#x![]-?:, \r\nabtermlangSec";
  for (int i = 0; i < 3000; ++i) {
    std::string input = i % 3 == 0 ? tbx : i % 3 == 1 ? csv : std::string();
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const char c = alphabet[rng() % alphabet.size()];
      if (input.empty() || rng() % 2 == 0)
        input.insert(input.empty() ? 0 : rng() % input.size(), 1, c);
      else
        input.erase(rng() % input.size(), 1);
    }
    (void)internal::ParseXml(input);
    (void)ParseGlossaryTbx(input, "en", "de");
    (void)ParseGlossaryCsv(input);
  }
}

// Found by fuzz/glossary_csv and fuzz/glossary_tbx.
TEST(GlossaryImports, RefuseWhatIsNotUtf8Text) {
  auto csv = ParseGlossaryCsv("source,target\nok,gut\nna\xC3ve,naiv\n");
  ASSERT_FALSE(csv);
  EXPECT_EQ(csv.error().code, "invalid_csv");
  EXPECT_NE(csv.error().detail.find("Line 3"), std::string::npos) << csv.error().detail;
  EXPECT_FALSE(ParseGlossaryCsv(std::string("source,target\na") + '\0' + "b,c\n"));
  EXPECT_FALSE(ParseGlossaryCsv("source,target\n\xED\xA0\x80,surrogate\n"));
  auto tbx = ParseGlossaryTbx(std::string("<tbx><text><body>\n<termEntry>") + '\0' + "</termEntry></body></text></tbx>",
                              "en", "de");
  ASSERT_FALSE(tbx);
  EXPECT_EQ(tbx.error().code, "invalid_xml");
  EXPECT_NE(tbx.error().detail.find("line 2"), std::string::npos) << tbx.error().detail;
}

TEST(GlossaryTbx, LongNotesAreCutAtACharacterAndReadBack) {
  std::string note;
  for (int i = 0; i < 999; ++i) note += "\xC3\xA9";  // e-acute
  note += " \v\v tail beyond the limit";
  const std::string xml = "<tbx><text><body><conceptEntry><note>" + note +
                          "</note><langSec xml:lang=\"en\"><termSec><term>a</term></termSec></langSec>"
                          "<langSec xml:lang=\"de\"><termSec><term>b</term></termSec></langSec>"
                          "</conceptEntry></body></text></tbx>";
  auto parsed = ParseGlossaryTbx(xml, "en", "de");
  ASSERT_TRUE(parsed) << parsed.error().detail;
  ASSERT_EQ(parsed->terms.size(), 1u);
  const std::string& cut = *parsed->terms[0].notes;
  EXPECT_EQ(cut.size(), 999u * 2);  // 999 characters; the blanks after them are trimmed
  Glossary g;
  g.source_language = "en";
  g.target_language = "de";
  g.terms = parsed->terms;
  auto back = ParseGlossaryTbx(WriteGlossaryTbx(g), "en", "de");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->terms[0].notes, cut);
}

TEST(GlossaryCsv, TermsThatLookProtectedReadBackAsWritten) {
  const std::vector<GlossaryTerm> terms = {{"'=SUM(A1)", "''+x", false, "'@note"}, {"'s-Hertogenbosch", "a", false, {}}};
  auto back = ParseGlossaryCsv(WriteGlossaryCsv(terms));
  ASSERT_TRUE(back) << back.error().detail;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].source, "'=SUM(A1)");
  EXPECT_EQ((*back)[0].target, "''+x");
  EXPECT_EQ((*back)[0].notes, "'@note");
  EXPECT_EQ((*back)[1].source, "'s-Hertogenbosch");
  // What a spreadsheet user writes to keep a formula literal still reads as the formula's text.
  EXPECT_EQ(ParseGlossaryCsv("source,target\n'=1+1,x\n").value()[0].source, "=1+1");
}

}  // namespace
}  // namespace credence::platform
