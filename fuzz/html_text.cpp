// The HTML tokenizer and text reduction of the web connector
// (src/connectors/web/html_text.*, internal/markup.*): HtmlToText on every
// crawled text/html page, PlainToText on text/plain, and the tokenizer,
// entity decoding and UTF-8 repair under them.
//
// Invariants: nothing throws; the text and the title are valid UTF-8 without
// NUL (they are stored and searched), the title at most 512 characters, the
// text without empty lines; links are canonical http(s) URLs (fixed points
// of CanonicalUrl), at most 2048 characters, each once; meta names are
// lowercase; the tokenizer ends.
#include <set>
#include <string>
#include <string_view>

#include "connectors/web/html_text.h"
#include "connectors/web/internal/markup.h"
#include "connectors/web/internal/url.h"
#include "core/text.h"
#include "support/fuzz_support.h"

namespace web = credence::connectors::web;

namespace {

constexpr std::string_view kBase = "https://intranet.example.com/handbook/expenses.html";

bool Storable(std::string_view s) { return credence::IsValidUtf8(s) && s.find('\0') == std::string_view::npos; }

void CheckReduced(const web::HtmlText& r) {
  FUZZ_CHECK(Storable(r.text), r.text);
  FUZZ_CHECK(Storable(r.title) && credence::Utf8Length(r.title) <= 512, r.title);
  FUZZ_CHECK(r.text.find("\n\n") == std::string::npos, r.text);
  std::set<std::string> seen;
  for (const auto& link : r.links) {
    FUZZ_CHECK(link.size() <= 2048 && seen.insert(link).second, link);
    auto canonical = web::internal::CanonicalUrl(link);
    FUZZ_CHECK(canonical && *canonical == link, link);
  }
  for (const auto& [name, value] : r.meta) {
    for (char c : name) FUZZ_CHECK(!(c >= 'A' && c <= 'Z'), name);
    (void)value;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  CheckReduced(web::HtmlToText(input, kBase));
  CheckReduced(web::PlainToText(input, kBase));

  for (const bool xml : {false, true}) {
    web::internal::MarkupTokenizer tokens(input, xml);
    size_t steps = 0;
    for (auto t = tokens.Next(); t != web::internal::MarkupTokenizer::Token::kDone; t = tokens.Next()) {
      FUZZ_CHECK(++steps <= input.size() + 1, "the tokenizer does not advance");
      if (t == web::internal::MarkupTokenizer::Token::kTag && !tokens.tag().end && !tokens.tag().self_closing &&
          tokens.tag().name == "script")
        (void)tokens.SkipContent("script");
    }
  }
  FUZZ_CHECK(Storable(web::internal::ValidUtf8(input)), "ValidUtf8");
  FUZZ_CHECK(Storable(web::internal::Latin1ToUtf8(input)) || input.find('\0') != std::string_view::npos,
             "Latin1ToUtf8");
  (void)web::internal::DecodeEntities(input);
  return 0;
}
