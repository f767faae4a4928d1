// The pure parts of machine translation: glossary placeholders, language
// codes, and TranslateNode with a fake provider.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "translation/document_translation.h"
#include "translation/translator.h"

namespace credence::translation {
namespace {

namespace json = boost::json;

// Upper-cases every text; remembers what it was asked.
class Upper : public Translator {
 public:
  explicit Upper(bool glossaries = false) : glossaries_(glossaries) {}
  std::string_view Name() const override { return "upper"; }
  bool SupportsGlossaries() const override { return glossaries_; }
  Result<std::vector<std::string>> Translate(const std::vector<std::string>& texts, const std::string&,
                                             const std::string&, const GlossaryInput*) const override {
    asked.push_back(texts);
    std::vector<std::string> out;
    for (auto t : texts) {
      for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.push_back(" " + t + " ");  // engines may pad or trim
    }
    return out;
  }
  mutable std::vector<std::vector<std::string>> asked;

 private:
  bool glossaries_;
};

TEST(Glossary, WholeWordsLongestFirstAndCaseAsTheTermSays) {
  const std::vector<Term> terms = {
      {"key", "clave", false}, {"access key", "clave de acceso", false}, {"API", "API", true}};
  Protected p = ProtectTerms("Your Access key, the keyboard, the api and the API key.", terms);
  EXPECT_EQ(p.text, "Your ZXQ1, the keyboard, the api and the ZXQ2 ZXQ3.");
  ASSERT_EQ(p.replacements.size(), 3u);
  EXPECT_EQ(RestoreTerms("Tu ZXQ1, el teclado, la api y la ZXQ3 ZXQ2.", p.replacements),
            "Tu clave de acceso, el teclado, la api y la clave API.");
  // Tokens past the list, and text without tokens, stay as they are.
  EXPECT_EQ(RestoreTerms("ZXQ9 ZXQ", p.replacements), "ZXQ9 ZXQ");
  EXPECT_EQ(RestoreTerms("plain", {}), "plain");
}

TEST(Glossary, TokensBeyondNineAreReadWhole) {
  std::vector<Term> terms;
  std::string text;
  for (int i = 1; i <= 12; ++i) {
    terms.push_back({"w" + std::to_string(i), "t" + std::to_string(i), false});
    text += "w" + std::to_string(i) + " ";
  }
  Protected p = ProtectTerms(text, terms);
  EXPECT_EQ(RestoreTerms(p.text, p.replacements), "t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 ");
}

TEST(Languages, ApertiumCodes) {
  EXPECT_EQ(ApertiumCode("en"), "eng");
  EXPECT_EQ(ApertiumCode("es"), "spa");
  EXPECT_EQ(ApertiumCode("es-MX"), "spa");
  EXPECT_EQ(ApertiumCode("en-US"), "eng_US");
  EXPECT_EQ(ApertiumCode("xx"), "xx");
}

TEST(TranslateNode, TextLeavesOnlyInOneBatchKeepingMarksAttrsAndEdgeSpaces) {
  const std::string node = R"({"type":"paragraph","attrs":{"blockId":"b1","align":"left"},"content":[)"
                           R"({"type":"text","text":"Press "},)"
                           R"({"type":"text","text":"Save","marks":[{"type":"bold"}]},)"
                           R"({"type":"text","text":" now, "},)"
                           R"({"type":"text","text":"make all","marks":[{"type":"code"}]},)"
                           R"({"type":"hardBreak"}]})";
  Upper upper;
  auto out = TranslateNode(upper, node, "en", "es", nullptr);
  ASSERT_TRUE(static_cast<bool>(out));
  ASSERT_EQ(upper.asked.size(), 1u);
  EXPECT_EQ(upper.asked[0], (std::vector<std::string>{"Press ", "Save", " now, "}));
  json::value v = json::parse(*out);
  EXPECT_EQ(v.at("attrs"), json::parse(R"({"blockId":"b1","align":"left"})"));
  const auto& c = v.at("content").as_array();
  EXPECT_EQ(c[0].at("text"), "PRESS ");
  EXPECT_EQ(c[1].at("text"), "SAVE");
  EXPECT_EQ(c[1].at("marks"), json::parse(R"([{"type":"bold"}])"));
  EXPECT_EQ(c[2].at("text"), " NOW, ");
  EXPECT_EQ(c[3].at("text"), "make all");  // inline code is not translated
  EXPECT_EQ(c[4], json::parse(R"({"type":"hardBreak"})"));
}

TEST(TranslateNode, GlossaryPlaceholdersUnlessTheProviderAppliesGlossaries) {
  const std::string node = R"({"type":"paragraph","content":[{"type":"text","text":"Open the panel"}]})";
  GlossaryInput glossary{{{"panel", "tablero", false}}, std::nullopt};
  Upper upper;
  auto out = TranslateNode(upper, node, "en", "es", &glossary);
  ASSERT_TRUE(static_cast<bool>(out));
  EXPECT_EQ(upper.asked[0][0], "Open the ZXQ1");
  EXPECT_EQ(json::parse(*out).at("content").at(0).at("text"), "OPEN THE tablero");
  Upper deepl_like(true);
  ASSERT_TRUE(static_cast<bool>(TranslateNode(deepl_like, node, "en", "es", &glossary)));
  EXPECT_EQ(deepl_like.asked[0][0], "Open the panel");
}

TEST(TranslateNode, CodeBlocksAndProtectedClassesAreCopied) {
  EXPECT_TRUE(CopiedVerbatim("codeBlock", std::nullopt));
  EXPECT_FALSE(CopiedVerbatim("paragraph", std::nullopt));
  EXPECT_TRUE(CopiedVerbatim("paragraph", platform::BlockTranslation::kProtect));
  EXPECT_TRUE(CopiedVerbatim("paragraph", platform::BlockTranslation::kSkip));
  EXPECT_FALSE(CopiedVerbatim("codeBlock", platform::BlockTranslation::kTranslate));
}

}  // namespace
}  // namespace credence::translation
