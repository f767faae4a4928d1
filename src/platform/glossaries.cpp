#include "platform/glossaries.h"

#include <algorithm>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "platform/internal/config_store.h"
#include "platform/internal/xml_reader.h"
#include "platform/languages.h"
#include "storage/session.h"

namespace credence::platform {
namespace json = boost::json;
namespace {

constexpr std::string_view kGlossariesKind = "glossary";

// ---- CSV ----

Error CsvError(size_t line, const std::string& what) {
  return Error::InvalidArgument("invalid_csv", "Line " + std::to_string(line) + ": " + what + ".",
                                {{"line " + std::to_string(line), what}});
}

// Splits RFC 4180 records. Returns records with the line each starts on.
Result<std::vector<std::pair<size_t, std::vector<std::string>>>> CsvRecords(std::string_view s) {
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  std::vector<std::pair<size_t, std::vector<std::string>>> out;
  size_t i = 0, line = 1;
  while (i < s.size()) {
    const size_t start_line = line;
    std::vector<std::string> fields;
    std::string field;
    bool end_of_record = false;
    while (!end_of_record) {
      if (i < s.size() && s[i] == '"') {
        ++i;
        for (;;) {
          if (i >= s.size()) return CsvError(start_line, "a quoted field is not closed");
          if (s[i] == '"') {
            if (i + 1 < s.size() && s[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (s[i] == '\n') ++line;
          field += s[i++];
        }
        if (i < s.size() && s[i] != ',' && s[i] != '\r' && s[i] != '\n')
          return CsvError(line, "text after a closing quote");
      } else {
        while (i < s.size() && s[i] != ',' && s[i] != '\r' && s[i] != '\n') {
          if (s[i] == '"') return CsvError(line, "a quote inside an unquoted field");
          field += s[i++];
        }
      }
      fields.push_back(std::move(field));
      field.clear();
      if (i >= s.size()) {
        end_of_record = true;
      } else if (s[i] == ',') {
        ++i;
      } else {
        if (s[i] == '\r') ++i;
        if (i < s.size() && s[i] == '\n') ++i;
        ++line;
        end_of_record = true;
      }
    }
    const bool blank = fields.size() == 1 && fields[0].empty();
    if (!blank) out.emplace_back(start_line, std::move(fields));
  }
  return out;
}

bool IsFormulaStart(std::string_view cell) {
  return !cell.empty() &&
         (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@' || cell[0] == '\t' || cell[0] == '\r');
}

// One or more ' before a formula start: what CsvCell writes for a term
// that starts with a formula character or is itself such a cell ("'=x",
// which would otherwise come back as "=x"; fuzz/glossary_csv).
bool IsProtected(std::string_view cell) {
  const size_t quotes = std::min(cell.find_first_not_of('\''), cell.size());
  return quotes > 0 && IsFormulaStart(cell.substr(quotes));
}

std::string Unprotect(std::string cell) {
  if (IsProtected(cell)) cell.erase(0, 1);
  return cell;
}

std::string CsvCell(std::string cell) {
  if (IsFormulaStart(cell) || IsProtected(cell)) cell.insert(0, "'");
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::optional<bool> ParseFlag(std::string_view v) {
  const std::string f = NameKey(Trim(v));
  if (f.empty() || f == "false" || f == "0" || f == "no") return false;
  if (f == "true" || f == "1" || f == "yes") return true;
  return std::nullopt;
}

// ---- TBX ----

using internal::XmlElement;

bool LanguageMatches(std::string_view lang, const std::string& wanted) {
  const std::string l = NameKey(lang), w = NameKey(wanted);
  if (l == w) return true;
  return l.size() > w.size() && l.compare(0, w.size(), w) == 0 && l[w.size()] == '-';
}

const std::string* LangOf(const XmlElement& el) {
  if (const auto* v = el.Attribute("xml:lang")) return v;
  return el.Attribute("lang");
}

const XmlElement* FindDescendant(const XmlElement& el, std::string_view name) {
  for (const auto& c : el.children) {
    if (c.name == name) return &c;
    if (const auto* d = FindDescendant(c, name)) return d;
  }
  return nullptr;
}

void CollectEntries(const XmlElement& el, std::vector<const XmlElement*>& out) {
  for (const auto& c : el.children) {
    if (c.name == "conceptEntry" || c.name == "termEntry")
      out.push_back(&c);
    else
      CollectEntries(c, out);
  }
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// ---- validation and storage ----

std::vector<FieldError> CheckTerms(std::vector<GlossaryTerm>& terms, const std::string& prefix) {
  std::vector<FieldError> errors;
  if (terms.size() > kMaxGlossaryTerms)
    errors.push_back({prefix, "at most " + std::to_string(kMaxGlossaryTerms) + " terms"});
  for (size_t i = 0; i < terms.size() && errors.size() < 50; ++i) {
    auto& t = terms[i];
    const std::string at = prefix + "[" + std::to_string(i) + "]";
    t.source = Trim(t.source);
    t.target = Trim(t.target);
    if (t.source.empty()) errors.push_back({at + ".source", "must not be blank"});
    if (t.target.empty()) errors.push_back({at + ".target", "must not be blank"});
    if (Utf8Length(t.source) > kMaxGlossaryTermLength)
      errors.push_back({at + ".source", "must be at most 200 characters"});
    if (Utf8Length(t.target) > kMaxGlossaryTermLength)
      errors.push_back({at + ".target", "must be at most 200 characters"});
    if (t.notes && Utf8Length(*t.notes) > kMaxGlossaryNotesLength)
      errors.push_back({at + ".notes", "must be at most 1000 characters"});
    if (t.notes && Trim(*t.notes).empty()) t.notes.reset();
  }
  return errors;
}

Result<Glossary> Validated(const Glossary& input) {
  Glossary g = input;
  g.name = Trim(g.name);
  std::vector<FieldError> errors;
  if (g.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(g.name) > 100) errors.push_back({"name", "must be at most 100 characters"});
  if (auto c = CanonicalLanguageCode(g.source_language))
    g.source_language = *c;
  else
    errors.push_back({"sourceLanguage", "unknown language '" + g.source_language + "'"});
  if (auto c = CanonicalLanguageCode(g.target_language))
    g.target_language = *c;
  else
    errors.push_back({"targetLanguage", "unknown language '" + g.target_language + "'"});
  if (errors.empty() && g.source_language == g.target_language)
    errors.push_back({"targetLanguage", "must differ from sourceLanguage"});
  if (g.description && Utf8Length(*g.description) > 1000)
    errors.push_back({"description", "must be at most 1000 characters"});
  auto term_errors = CheckTerms(g.terms, "terms");
  errors.insert(errors.end(), term_errors.begin(), term_errors.end());
  if (!errors.empty()) return Error::Validation(std::move(errors));
  g.term_count = g.terms.size();
  return g;
}

json::object BodyOf(const Glossary& g) {
  json::array terms;
  for (const auto& t : g.terms) {
    json::object o{{"source", t.source}, {"target", t.target}, {"caseSensitive", t.case_sensitive}};
    if (t.notes) o["notes"] = *t.notes;
    terms.push_back(std::move(o));
  }
  json::object body{
      {"sourceLanguage", g.source_language}, {"targetLanguage", g.target_language}, {"terms", std::move(terms)}};
  if (g.description) body["description"] = *g.description;
  return body;
}

Glossary FromItem(const internal::ConfigItem& item, bool with_terms) {
  Glossary g;
  g.id = item.id;
  g.name = item.name;
  const auto& b = item.body;
  auto str = [&](const json::object& o, const char* key) -> std::optional<std::string> {
    if (const auto* v = o.if_contains(key); v && v->is_string()) return std::string(v->as_string());
    return std::nullopt;
  };
  g.source_language = str(b, "sourceLanguage").value_or("");
  g.target_language = str(b, "targetLanguage").value_or("");
  g.description = str(b, "description");
  if (const auto* v = b.if_contains("terms"); v && v->is_array()) {
    g.term_count = v->as_array().size();
    if (with_terms)
      for (const auto& t : v->as_array()) {
        if (!t.is_object()) continue;
        const auto& o = t.as_object();
        GlossaryTerm term;
        term.source = str(o, "source").value_or("");
        term.target = str(o, "target").value_or("");
        term.notes = str(o, "notes");
        if (const auto* c = o.if_contains("caseSensitive"); c && c->is_bool()) term.case_sensitive = c->as_bool();
        g.terms.push_back(std::move(term));
      }
  }
  g.created_at = item.created_at;
  g.updated_at = item.updated_at;
  return g;
}

Error GlossariesNotFound() { return Error::NotFound("Glossary not found."); }
Error GlossariesNameTaken(const std::string& name) {
  return Error::Conflict("glossary_name_taken", "A glossary named '" + name + "' already exists.");
}

}  // namespace

Result<std::vector<GlossaryTerm>> ParseGlossaryCsv(std::string_view csv) {
  if (csv.size() > kMaxGlossaryImportBytes) return CsvError(1, "the file is larger than 2 MiB");
  // Before anything is echoed in an error or stored (fuzz/glossary_csv).
  if (const size_t bad = FirstLineNotUtf8Text(csv); bad != 0) return CsvError(bad, "not UTF-8 text");
  CR_TRY_ASSIGN(auto records, CsvRecords(csv));
  if (records.empty()) return CsvError(1, "no header row (source,target,caseSensitive,notes)");
  int source = -1, target = -1, case_sensitive = -1, notes = -1;
  const auto& header = records.front().second;
  for (size_t i = 0; i < header.size(); ++i) {
    const std::string name = NameKey(Trim(header[i]));
    int* slot = name == "source"          ? &source
                : name == "target"        ? &target
                : name == "casesensitive" ? &case_sensitive
                : name == "notes"         ? &notes
                                          : nullptr;
    if (slot == nullptr)
      return CsvError(1, "unknown column '" + header[i] + "' (source, target, caseSensitive, notes)");
    if (*slot >= 0) return CsvError(1, "the column '" + header[i] + "' appears twice");
    *slot = static_cast<int>(i);
  }
  if (source < 0 || target < 0) return CsvError(1, "the header must name the columns source and target");
  if (records.size() - 1 > kMaxGlossaryTerms) return CsvError(1, "more than 5000 terms");
  std::vector<GlossaryTerm> out;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& [line, fields] = records[r];
    if (fields.size() != header.size())
      return CsvError(line,
                      std::to_string(fields.size()) + " fields where the header has " + std::to_string(header.size()));
    GlossaryTerm t;
    t.source = Trim(Unprotect(fields[static_cast<size_t>(source)]));
    t.target = Trim(Unprotect(fields[static_cast<size_t>(target)]));
    if (t.source.empty() || t.target.empty()) return CsvError(line, "source and target must not be blank");
    if (Utf8Length(t.source) > kMaxGlossaryTermLength || Utf8Length(t.target) > kMaxGlossaryTermLength)
      return CsvError(line, "a term is longer than 200 characters");
    if (case_sensitive >= 0) {
      auto flag = ParseFlag(fields[static_cast<size_t>(case_sensitive)]);
      if (!flag) return CsvError(line, "caseSensitive must be true or false");
      t.case_sensitive = *flag;
    }
    if (notes >= 0) {
      std::string n = Unprotect(fields[static_cast<size_t>(notes)]);
      if (Utf8Length(n) > kMaxGlossaryNotesLength) return CsvError(line, "notes longer than 1000 characters");
      if (!Trim(n).empty()) t.notes = std::move(n);
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::string WriteGlossaryCsv(const std::vector<GlossaryTerm>& terms) {
  std::string out = "source,target,caseSensitive,notes\r\n";
  for (const auto& t : terms)
    out += CsvCell(t.source) + "," + CsvCell(t.target) + "," + (t.case_sensitive ? "true" : "false") + "," +
           CsvCell(t.notes.value_or("")) + "\r\n";
  return out;
}

Result<TbxImport> ParseGlossaryTbx(std::string_view xml, const std::string& source_language,
                                   const std::string& target_language) {
  if (xml.size() > kMaxGlossaryImportBytes)
    return Error::InvalidArgument("invalid_tbx", "The TBX document is larger than 2 MiB.");
  CR_TRY_ASSIGN(auto root, internal::ParseXml(xml));
  if (root.name != "tbx" && root.name != "martif")
    return Error::InvalidArgument("invalid_tbx", "Not a TBX document: the root element is <" + root.name +
                                                     ">, not <tbx> (or TBX 2008's <martif>).");
  std::vector<const XmlElement*> entries;
  CollectEntries(root, entries);
  TbxImport out;
  for (const auto* entry : entries) {
    std::optional<std::string> source, target, notes;
    for (const auto& section : entry->children) {
      if (section.name != "langSec" && section.name != "langSet") continue;
      const auto* lang = LangOf(section);
      if (lang == nullptr) continue;
      const auto* term = FindDescendant(section, "term");
      if (term == nullptr) continue;
      std::string text = Trim(term->AllText());
      if (text.empty()) continue;
      if (!source && LanguageMatches(*lang, source_language))
        source = std::move(text);
      else if (!target && LanguageMatches(*lang, target_language))
        target = std::move(text);
    }
    for (const auto& c : entry->children)
      if (!notes && (c.name == "note" || c.name == "descrip")) notes = Trim(c.AllText());
    if (!source || !target) {
      ++out.skipped;
      continue;
    }
    GlossaryTerm t{*source, *target, false, notes && !notes->empty() ? notes : std::nullopt};
    if (Utf8Length(t.source) > kMaxGlossaryTermLength || Utf8Length(t.target) > kMaxGlossaryTermLength)
      return Error::InvalidArgument("invalid_tbx",
                                    "The term '" + t.source.substr(0, 40) + "...' is longer than 200 characters.");
    if (t.notes && Utf8Length(*t.notes) > kMaxGlossaryNotesLength) {
      // 1,000 characters, not bytes (a cut inside a character is not UTF-8),
      // trimmed again so that the note reads back as written (found by
      // fuzz/glossary_tbx).
      size_t cut = 0;
      for (size_t chars = 0; chars < kMaxGlossaryNotesLength && cut < t.notes->size(); ++chars) {
        ++cut;
        while (cut < t.notes->size() && (static_cast<unsigned char>((*t.notes)[cut]) & 0xC0) == 0x80) ++cut;
      }
      t.notes = Trim(t.notes->substr(0, cut));
    }
    out.terms.push_back(std::move(t));
    if (out.terms.size() > kMaxGlossaryTerms)
      return Error::InvalidArgument("invalid_tbx", "The TBX document has more than 5000 entries.");
  }
  return out;
}

std::string WriteGlossaryTbx(const Glossary& g) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<tbx type=\"TBX-Basic\" style=\"dca\" xml:lang=\"" +
      XmlEscape(g.source_language) +
      "\" xmlns=\"urn:iso:std:iso:30042:ed-2\">\n"
      "  <tbxHeader>\n    <fileDesc>\n      <sourceDesc>\n        <p>" +
      XmlEscape(g.name) + "</p>\n      </sourceDesc>\n    </fileDesc>\n  </tbxHeader>\n  <text>\n    <body>\n";
  for (size_t i = 0; i < g.terms.size(); ++i) {
    const auto& t = g.terms[i];
    out += "      <conceptEntry id=\"c" + std::to_string(i + 1) + "\">\n";
    if (t.notes) out += "        <note>" + XmlEscape(*t.notes) + "</note>\n";
    out += "        <langSec xml:lang=\"" + XmlEscape(g.source_language) +
           "\">\n          <termSec>\n            <term>" + XmlEscape(t.source) +
           "</term>\n          </termSec>\n        </langSec>\n";
    out += "        <langSec xml:lang=\"" + XmlEscape(g.target_language) +
           "\">\n          <termSec>\n            <term>" + XmlEscape(t.target) +
           "</term>\n          </termSec>\n        </langSec>\n";
    out += "      </conceptEntry>\n";
  }
  out += "    </body>\n  </text>\n</tbx>\n";
  return out;
}

Result<std::vector<Glossary>> GlossaryService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<Glossary> out;
  for (const auto& item : internal::ListItems(tenant, kGlossariesKind)) out.push_back(FromItem(item, false));
  return out;
}

Result<Glossary> GlossaryService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, kGlossariesKind, id);
  if (!item) return GlossariesNotFound();
  return FromItem(*item, true);
}

Result<Glossary> GlossaryService::Create(const identity::Principal& caller, const Glossary& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto g, Validated(input));
  g.id = NewId();
  g.created_at = g.updated_at = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (internal::FindItemByName(tenant, kGlossariesKind, g.name)) return GlossariesNameTaken(g.name);
  internal::InsertItem(tenant, kGlossariesKind,
                       {g.id, g.name, g.source_language, BodyOf(g), g.created_at, g.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "glossary.created", {"glossary", g.id},
                                          {{"name", g.name}, {"terms", g.terms.size()}}));
  session.Commit();
  return g;
}

Result<Glossary> GlossaryService::Update(const identity::Principal& caller, const std::string& id,
                                         const Glossary& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto g, Validated(input));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kGlossariesKind, id);
  if (!existing) return GlossariesNotFound();
  if (auto other = internal::FindItemByName(tenant, kGlossariesKind, g.name); other && *other != id)
    return GlossariesNameTaken(g.name);
  g.id = id;
  g.created_at = existing->created_at;
  g.updated_at = clock_.Now();
  internal::UpdateItem(tenant, kGlossariesKind,
                       {g.id, g.name, g.source_language, BodyOf(g), g.created_at, g.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "glossary.updated", {"glossary", g.id},
                                          {{"name", g.name}, {"terms", g.terms.size()}}));
  session.Commit();
  return g;
}

Status GlossaryService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kGlossariesKind, id);
  if (!existing) return GlossariesNotFound();
  internal::DeleteItem(tenant, kGlossariesKind, id);
  audit_.Record(tenant, identity::AuditOf(caller, "glossary.deleted", {"glossary", id}, {{"name", existing->name}}));
  session.Commit();
  return Ok();
}

Result<Glossary> GlossaryService::Import(const identity::Principal& caller, const std::string& id,
                                         const std::vector<GlossaryTerm>& terms, bool replace,
                                         std::string_view format) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kGlossariesKind, id);
  if (!existing) return GlossariesNotFound();
  Glossary g = FromItem(*existing, true);
  if (replace) g.terms.clear();
  for (const auto& t : terms) {
    auto same = std::find_if(g.terms.begin(), g.terms.end(),
                             [&](const GlossaryTerm& x) { return NameKey(x.source) == NameKey(t.source); });
    if (same != g.terms.end())
      *same = t;
    else
      g.terms.push_back(t);
  }
  if (auto errors = CheckTerms(g.terms, "terms"); !errors.empty()) return Error::Validation(std::move(errors));
  g.term_count = g.terms.size();
  g.updated_at = clock_.Now();
  internal::UpdateItem(tenant, kGlossariesKind,
                       {g.id, g.name, g.source_language, BodyOf(g), g.created_at, g.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "glossary.imported", {"glossary", g.id},
                                          {{"format", format},
                                           {"mode", replace ? "replace" : "merge"},
                                           {"imported", terms.size()},
                                           {"terms", g.terms.size()}}));
  session.Commit();
  return g;
}

Status GlossaryService::Sync(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (!internal::GetItem(tenant, kGlossariesKind, id)) return GlossariesNotFound();
  return Error::Conflict("no_translation_provider",
                         "No machine-translation provider is configured for this tenant; glossaries can be pushed "
                         "once machine translation is available.");
}

namespace {
constexpr storage::TenantQuery kProviderGlossaryId{"platform.provider_glossary_id",
                                                   "SELECT provider_glossary_id FROM glossary_provider_ids WHERE "
                                                   "tenant_id = $1 AND glossary_id = $2 AND provider = $3"};
constexpr storage::TenantQuery kDeleteProviderGlossaryId{
    "platform.delete_provider_glossary_id",
    "DELETE FROM glossary_provider_ids WHERE tenant_id = $1 AND glossary_id = $2 AND provider = $3"};
constexpr storage::TenantQuery kInsertProviderGlossaryId{
    "platform.insert_provider_glossary_id",
    "INSERT INTO glossary_provider_ids (tenant_id, glossary_id, provider, provider_glossary_id, synced_at)"
    " VALUES ($1, $2, $3, $4, $5)"};
}  // namespace

std::optional<std::string> GlossaryService::ProviderGlossaryId(const identity::Principal& caller, const std::string& id,
                                                               std::string_view provider) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kProviderGlossaryId, {id, std::string(provider)});
  if (rows.empty()) return std::nullopt;
  return rows.front().Text(0);
}

Status GlossaryService::RecordProviderGlossary(const identity::Principal& caller, const std::string& id,
                                               std::string_view provider,
                                               const std::string& provider_glossary_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (!internal::GetItem(tenant, kGlossariesKind, id)) return GlossariesNotFound();
  tenant.Run(kDeleteProviderGlossaryId, {id, std::string(provider)});
  tenant.Run(kInsertProviderGlossaryId, {id, std::string(provider), provider_glossary_id, clock_.Now()});
  session.Commit();
  return Ok();
}

}  // namespace credence::platform
