#pragma once
// Result<T>: a value or a domain Error. Expected failures (bad input, not
// found, conflicts) travel as values; storage failures and broken invariants
// throw and are caught once, at the HTTP boundary.
#include <cassert>
#include <utility>
#include <variant>

#include "core/error.h"

namespace credence {

struct Unit {};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(implicit)
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(implicit)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { assert(!ok()); return std::get<1>(v_); }
  Error&& error() && { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

using Status = Result<Unit>;
inline Status Ok() { return Unit{}; }

#define CREDENCE_CONCAT_INNER(a, b) a##b
#define CREDENCE_CONCAT(a, b) CREDENCE_CONCAT_INNER(a, b)

// Returns the error of `expr` from the enclosing function.
#define CR_TRY(expr)                                    \
  do {                                                  \
    auto&& cr_try_result_ = (expr);                     \
    if (!cr_try_result_) return std::move(cr_try_result_).error(); \
  } while (0)

// Declares `lhs` from the value of `expr`, or returns its error.
#define CR_TRY_ASSIGN(lhs, expr) \
  CR_TRY_ASSIGN_IMPL(CREDENCE_CONCAT(cr_result_, __LINE__), lhs, expr)
// `tmp` and `lhs` are a name and a declaration ("auto x"), which cannot be
// parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define CR_TRY_ASSIGN_IMPL(tmp, lhs, expr)           \
  auto tmp = (expr);                                 \
  if (!tmp) return std::move(tmp).error();           \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace credence
