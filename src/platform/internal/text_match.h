#pragma once
// Literal text matching shared by heuristics and style rules: ASCII letters
// optionally compared ignoring case, optional whole-word boundaries (a byte
// of a non-ASCII character counts as part of a word), UTF-16 offsets for
// editors.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace credence::platform::internal {

bool EqualsAt(std::string_view text, size_t at, std::string_view needle, bool case_sensitive);

// ASCII letters lowercased; other bytes unchanged (offsets stay the same).
std::string FoldAscii(std::string_view text);

// Byte offsets of every non-overlapping occurrence of `needle` in `text`,
// in order. Without `case_sensitive`, both must already be folded
// (FoldAscii). With `whole_word`, only occurrences not inside a longer
// word. Boyer-Moore-Horspool: no input makes it quadratic in practice, and
// callers bound text and needle sizes.
std::vector<size_t> FindAll(std::string_view text, std::string_view needle, bool whole_word, size_t max_matches);

// The number of UTF-16 code units of the UTF-8 text's first `bytes` bytes
// (what a JavaScript string index counts).
size_t Utf16Length(std::string_view text, size_t bytes);
inline size_t Utf16Length(std::string_view text) { return Utf16Length(text, text.size()); }

}  // namespace credence::platform::internal
