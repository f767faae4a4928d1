#pragma once
// Materialized query results with typed accessors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/value.h"

namespace credence::storage {

class Rows;

// A view of one row; valid while its Rows lives.
class Row {
 public:
  Row(const Rows& rows, size_t index) : rows_(&rows), index_(index) {}

  bool IsNull(int column) const;
  std::string Text(int column) const;  // "" for NULL
  // A view of a text cell, valid while the Rows live; empty for NULL and
  // for non-text cells (use Text for those).
  std::string_view TextView(int column) const;
  std::optional<std::string> OptText(int column) const;
  int64_t Int(int column) const;  // 0 for NULL
  std::optional<int64_t> OptInt(int column) const;
  double Real(int column) const;
  bool Bool(int column) const;  // stored as 0/1 on both backends

 private:
  const Cell& At(int column) const;
  const Rows* rows_;
  size_t index_;
};

class Rows {
 public:
  Rows() = default;
  explicit Rows(int columns) : columns_(columns) {}

  size_t size() const { return columns_ == 0 ? 0 : cells_.size() / static_cast<size_t>(columns_); }
  bool empty() const { return size() == 0; }
  int columns() const { return columns_; }
  Row operator[](size_t i) const { return Row(*this, i); }
  Row front() const { return Row(*this, 0); }
  // Rows changed by an INSERT/UPDATE/DELETE without RETURNING.
  int64_t affected() const { return affected_; }

  class Iterator {
   public:
    Iterator(const Rows& r, size_t i) : rows_(&r), i_(i) {}
    Row operator*() const { return Row(*rows_, i_); }
    Iterator& operator++() { ++i_; return *this; }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }
   private:
    const Rows* rows_;
    size_t i_;
  };
  Iterator begin() const { return Iterator(*this, 0); }
  Iterator end() const { return Iterator(*this, size()); }

  // For backends.
  void Add(Cell cell) { cells_.push_back(std::move(cell)); }
  void Reserve(size_t rows) { cells_.reserve(rows * static_cast<size_t>(columns_)); }
  void set_affected(int64_t n) { affected_ = n; }

 private:
  friend class Row;
  int columns_ = 0;
  int64_t affected_ = 0;
  std::vector<Cell> cells_;
};

}  // namespace credence::storage
