#pragma once
// Full-text search as each backend stores it (kb/schema.cpp), for what must
// know it outside kb: moving a SQLite database to PostgreSQL (credence admin
// migrate-database, app/migrate_database.cpp), where the search rows are not
// copied as they are but made again from the text the SQLite index holds.
//
// SQLite: the FTS5 virtual table entry_search (title, body; its shadow
// tables entry_search_data, _idx, _content, _docsize, _config) keyed by the
// rowid of search_docs, which holds what search filters on.
// PostgreSQL: the table entry_search, one weighted tsvector per entry.
#include <string_view>

// The PostgreSQL search document of an entry from two SQL text expressions:
// the title weighted A, the body B, in the 'simple' configuration (the
// corpus is multilingual: no language's stemmer is imposed on the others).
#define CREDENCE_KB_SEARCH_DOCUMENT(TITLE, BODY) \
  "setweight(to_tsvector('simple', " TITLE "), 'A') || setweight(to_tsvector('simple', " BODY "), 'B')"

namespace credence::kb {

inline constexpr std::string_view kSearchTable = "entry_search";
inline constexpr std::string_view kSqliteSearchDocs = "search_docs";

// SQLite: (tenant_id, entry_id, hub_id, title, body) of every indexed entry.
inline constexpr std::string_view kSqliteSearchText =
    "SELECT d.tenant_id, d.entry_id, d.hub_id, s.title, s.body"
    " FROM search_docs d JOIN entry_search s ON s.rowid = d.rowid ORDER BY d.rowid";
// SQLite: how many entries the index holds (the rows kSqliteSearchText reads).
inline constexpr std::string_view kSqliteSearchCount =
    "SELECT count(*) FROM search_docs d JOIN entry_search s ON s.rowid = d.rowid";

// PostgreSQL: a temporary table of the columns kSqliteSearchText reads...
inline constexpr std::string_view kPostgresSearchTextTable = "search_text";
inline constexpr std::string_view kPostgresCreateSearchText =
    "CREATE TEMPORARY TABLE search_text (tenant_id TEXT, entry_id TEXT, hub_id TEXT, title TEXT, body TEXT)"
    " ON COMMIT DROP";
// ...and entry_search rows made from it, as kb makes them on every save.
inline constexpr std::string_view kPostgresSearchFromText =
    "INSERT INTO entry_search (tenant_id, entry_id, hub_id, title, document)"
    " SELECT tenant_id, entry_id, hub_id, title, " CREDENCE_KB_SEARCH_DOCUMENT("title", "body") " FROM search_text";

}  // namespace credence::kb
