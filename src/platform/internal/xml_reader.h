#pragma once
// A small, safe XML reader for TBX imports: elements, attributes, text,
// CDATA, comments and processing instructions; the five predefined entities
// and character references. No DTD: a DOCTYPE is refused, so no external
// entity, no entity expansion. Bounded: input size, depth and node count.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace credence::platform::internal {

struct XmlElement {
  std::string name;  // local name, prefix removed ("xml:lang" attributes keep theirs)
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  std::string text;  // the concatenated text directly inside, untrimmed

  const std::string* Attribute(std::string_view name) const;
  // All text inside, children's included, in document order.
  std::string AllText() const;
};

struct XmlLimits {
  size_t max_bytes = size_t{4} * 1024 * 1024;
  size_t max_depth = 64;
  size_t max_elements = 200000;
};

// The root element, or 400 invalid_xml with a line number in the detail.
Result<XmlElement> ParseXml(std::string_view text, const XmlLimits& limits = {});

}  // namespace credence::platform::internal
