#include "platform/internal/text_match.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace credence::platform::internal {
namespace {

unsigned char Fold(unsigned char c) { return static_cast<unsigned char>(std::tolower(c)); }

bool IsWordByte(unsigned char c) { return c >= 0x80 || std::isalnum(c) || c == '_'; }

}  // namespace

bool EqualsAt(std::string_view text, size_t at, std::string_view needle, bool case_sensitive) {
  if (at > text.size() || text.size() - at < needle.size()) return false;
  for (size_t i = 0; i < needle.size(); ++i) {
    const auto a = static_cast<unsigned char>(text[at + i]);
    const auto b = static_cast<unsigned char>(needle[i]);
    if (case_sensitive ? a != b : Fold(a) != Fold(b)) return false;
  }
  return true;
}

std::string FoldAscii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(Fold(static_cast<unsigned char>(c)));
  return out;
}

std::vector<size_t> FindAll(std::string_view text, std::string_view needle, bool whole_word, size_t max_matches) {
  std::vector<size_t> out;
  if (needle.empty() || needle.size() > text.size()) return out;
  const std::boyer_moore_horspool_searcher searcher(needle.begin(), needle.end());
  const bool starts_word = IsWordByte(static_cast<unsigned char>(needle.front()));
  const bool ends_word = IsWordByte(static_cast<unsigned char>(needle.back()));
  auto from = text.begin();
  while (out.size() < max_matches) {
    const auto found = std::search(from, text.end(), searcher);
    if (found == text.end()) break;
    const auto at = static_cast<size_t>(found - text.begin());
    const size_t end = at + needle.size();
    const bool inside_word =
        whole_word && ((starts_word && at > 0 && IsWordByte(static_cast<unsigned char>(text[at - 1]))) ||
                       (ends_word && end < text.size() && IsWordByte(static_cast<unsigned char>(text[end]))));
    if (inside_word) {
      from = found + 1;
      continue;
    }
    out.push_back(at);
    from = found + static_cast<std::ptrdiff_t>(needle.size());
  }
  return out;
}

size_t Utf16Length(std::string_view text, size_t bytes) {
  size_t units = 0;
  for (size_t i = 0; i < bytes && i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    units += c >= 0xF0 ? 2 : 1;        // four-byte sequences are surrogate pairs
  }
  return units;
}

}  // namespace credence::platform::internal
