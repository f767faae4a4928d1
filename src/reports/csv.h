#pragma once
// A report as CSV (RFC 4180): a header row of the column names, then one
// record per row; records end with CRLF; a field is quoted when it holds a
// comma, a double quote, CR or LF, and a double quote inside is doubled.
// Null is an empty field; timestamps are RFC 3339 UTC; booleans true/false.
//
// Spreadsheet formulas: a string cell that starts with = + - @, tab or CR is
// prefixed with a single quote, so a document title cannot run as a formula
// when an export is opened in a spreadsheet (OWASP "CSV injection"). Only
// string columns are touched; numbers keep their sign.
#include <string>
#include <string_view>
#include <vector>

#include "reports/report_service.h"

namespace credence::reports {

// One field, quoted when needed.
void AppendCsvField(std::string& out, std::string_view value);

std::string ToCsv(const std::vector<Column>& columns, const std::vector<ReportRow>& rows);

// A cell as text, as CSV writes it (before quoting).
std::string CellText(const Cell& cell, ColumnType type);

}  // namespace credence::reports
