#include "reports/csv.h"

#include <charconv>

namespace credence::reports {

void AppendCsvField(std::string& out, std::string_view value) {
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += value;
    return;
  }
  out += '"';
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string CellText(const Cell& cell, ColumnType type) {
  if (std::holds_alternative<std::monostate>(cell)) return "";
  if (const auto* s = std::get_if<std::string>(&cell)) {
    if (!s->empty() && std::string_view("=+-@\t\r").find(s->front()) != std::string_view::npos) return "'" + *s;
    return *s;
  }
  if (const auto* i = std::get_if<int64_t>(&cell)) return type == ColumnType::kTimestamp ? FormatTimestamp(*i) : std::to_string(*i);
  if (const auto* d = std::get_if<double>(&cell)) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *d);
    return ec == std::errc() ? std::string(buf, end) : std::string();
  }
  return std::get<bool>(cell) ? "true" : "false";
}

std::string ToCsv(const std::vector<Column>& columns, const std::vector<ReportRow>& rows) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ',';
    AppendCsvField(out, columns[i].name);
  }
  out += "\r\n";
  for (const auto& row : rows) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (i > 0) out += ',';
      if (i < row.size()) AppendCsvField(out, CellText(row[i], columns[i].type));
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace credence::reports
