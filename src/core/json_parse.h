#pragma once
// JSON parsing that reads every number exactly.
//
// Boost.JSON 1.81's parser converts decimals to doubles with a fast method
// that is off by an ulp for some inputs ("131.90e195"), and it also misreads
// some of the shortest forms its own serializer writes ("1.3190000000000001E197"
// is read back as a different double). Parsed and re-serialized text then
// drifts on every round trip: an editor document changed its numbers, and its
// blocks' hashes (and so the staleness of their translations), each time it
// was saved unchanged (found by the prosemirror_document fuzz target). This
// parser is Boost's own, with the double read again from its text by
// std::from_chars, which rounds correctly (Boost 1.83 added the same fix as
// parse_options::numbers).
#include <string_view>

namespace boost::json {
class value;
struct parse_options;
}  // namespace boost::json
namespace boost::system {
class error_code;
}

namespace credence {

boost::json::value ParseJson(std::string_view text, boost::system::error_code& ec);
boost::json::value ParseJson(std::string_view text, boost::system::error_code& ec,
                             const boost::json::parse_options& options);

}  // namespace credence
