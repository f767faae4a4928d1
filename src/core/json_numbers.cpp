#include "core/json_numbers.h"

#include <boost/json/value.hpp>

#include <algorithm>
#include <cmath>

namespace credence {

bool AllNumbersFinite(const boost::json::value& v) {
  if (v.is_double()) return std::isfinite(v.get_double());
  if (const auto* a = v.if_array()) return std::all_of(a->begin(), a->end(), AllNumbersFinite);
  if (const auto* o = v.if_object())
    return std::all_of(o->begin(), o->end(), [](const auto& member) { return AllNumbersFinite(member.value()); });
  return true;
}

}  // namespace credence
