#include "core/trace_context.h"

namespace credence {

void AppendHex(std::string& out, const uint8_t* bytes, size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
}

}  // namespace credence
