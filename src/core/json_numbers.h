#pragma once
// Boost.JSON reads a number beyond a double's range ("1e400") as infinity
// and writes it back as "Infinity", which is not JSON. Whatever is parsed
// from outside input and later serialized (stored, answered, hashed and
// parsed again) must be refused when it holds one (found by the fuzz
// targets: request bodies, hook answers, editor documents).
namespace boost::json {
class value;
}

namespace credence {

bool AllNumbersFinite(const boost::json::value& v);

}  // namespace credence
