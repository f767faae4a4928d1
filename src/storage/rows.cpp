#include "storage/rows.h"

#include <cassert>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace credence::storage {

const Cell& Row::At(int column) const {
  assert(column >= 0 && column < rows_->columns_);
  return rows_->cells_[index_ * static_cast<size_t>(rows_->columns_) + static_cast<size_t>(column)];
}

bool Row::IsNull(int column) const { return std::holds_alternative<std::monostate>(At(column)); }

std::string Row::Text(int column) const {
  const Cell& c = At(column);
  if (auto* s = std::get_if<std::string>(&c)) return *s;
  if (auto* i = std::get_if<int64_t>(&c)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&c)) return std::to_string(*d);
  return {};
}

std::string_view Row::TextView(int column) const {
  if (auto* s = std::get_if<std::string>(&At(column))) return *s;
  return {};
}

std::optional<std::string> Row::OptText(int column) const {
  if (IsNull(column)) return std::nullopt;
  return Text(column);
}

int64_t Row::Int(int column) const {
  const Cell& c = At(column);
  if (auto* i = std::get_if<int64_t>(&c)) return *i;
  if (auto* s = std::get_if<std::string>(&c)) {
    // PostgreSQL text results; booleans arrive as t/f.
    if (*s == "t") return 1;
    if (*s == "f") return 0;
    int64_t out = 0;
    auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), out);
    if (ec != std::errc()) throw std::runtime_error("column " + std::to_string(column) + " is not an integer");
    return out;
  }
  if (auto* d = std::get_if<double>(&c)) return static_cast<int64_t>(*d);
  return 0;
}

std::optional<int64_t> Row::OptInt(int column) const {
  if (IsNull(column)) return std::nullopt;
  return Int(column);
}

double Row::Real(int column) const {
  const Cell& c = At(column);
  if (auto* d = std::get_if<double>(&c)) return *d;
  if (auto* i = std::get_if<int64_t>(&c)) return static_cast<double>(*i);
  if (auto* s = std::get_if<std::string>(&c)) return std::strtod(s->c_str(), nullptr);
  return 0;
}

bool Row::Bool(int column) const { return Int(column) != 0; }

}  // namespace credence::storage
