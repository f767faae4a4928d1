#pragma once
// Query parameters and result cells. Parameters borrow their text: they are
// bound and consumed within the call that receives them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace credence::storage {

class Param {
 public:
  Param(std::nullptr_t) : v_(std::monostate{}) {}  // NOLINT(implicit)
  Param(std::nullopt_t) : v_(std::monostate{}) {}  // NOLINT(implicit)
  Param(bool b) : v_(static_cast<int64_t>(b ? 1 : 0)) {}  // NOLINT(implicit)
  Param(int i) : v_(static_cast<int64_t>(i)) {}  // NOLINT(implicit)
  Param(int64_t i) : v_(i) {}  // NOLINT(implicit)
  Param(double d) : v_(d) {}  // NOLINT(implicit)
  Param(std::string_view s) : v_(s) {}  // NOLINT(implicit)
  Param(const std::string& s) : v_(std::string_view(s)) {}  // NOLINT(implicit)
  Param(const char* s) : v_(std::string_view(s)) {}  // NOLINT(implicit)
  template <class T>
  Param(const std::optional<T>& o) : Param(o ? Param(*o) : Param(nullptr)) {}  // NOLINT(implicit)

  bool is_null() const { return v_.index() == 0; }
  const std::variant<std::monostate, int64_t, double, std::string_view>& get() const { return v_; }

 private:
  std::variant<std::monostate, int64_t, double, std::string_view> v_;
};

// A result cell. SQLite hands back typed values; PostgreSQL (text protocol)
// hands back text that the accessors of Row parse.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

}  // namespace credence::storage
