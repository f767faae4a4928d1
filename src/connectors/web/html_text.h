#pragma once
// HTML reduced to text, with the page's title, links and meta tags. Pure;
// never fails and never throws on any input (broken or hostile markup, binary
// junk): tested on every prefix of a tricky document and on random bytes.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace credence::connectors::web {

struct HtmlText {
  std::string title;  // <title>, else the first <h1>, else base_url; white space collapsed, <= 512 characters
  // The visible text: script, style, noscript, template and svg contents and
  // comments dropped, entities decoded, block elements ending lines, runs of
  // white space collapsed to one space, no empty lines. Valid UTF-8 (invalid
  // bytes become U+FFFD).
  std::string text;
  // <a href> and <area href> resolved against base_url (or <base href>):
  // absolute http(s) URLs in canonical form (lowercase scheme and host, no
  // default port, no fragment, query kept), each once, in document order;
  // links longer than 2048 characters are left out.
  std::vector<std::string> links;
  // <meta name|property="k" content="v">, k lowercased; the first of each k wins.
  std::map<std::string, std::string> meta;
};

HtmlText HtmlToText(std::string_view html, std::string_view base_url);

// text/plain reduced the same way (lines kept, white space collapsed, valid
// UTF-8); its title is base_url.
HtmlText PlainToText(std::string_view text, std::string_view base_url);

}  // namespace credence::connectors::web
