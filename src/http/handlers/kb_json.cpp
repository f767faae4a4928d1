#include "http/handlers/kb_json.h"

#include <boost/json/array.hpp>

#include "http/json_io.h"

namespace credence::http {
namespace json = boost::json;
namespace {

json::value OptString(const std::optional<std::string>& s) { return s ? json::value(*s) : json::value(nullptr); }

}  // namespace

json::object HubJson(const kb::Hub& h) {
  return {{"id", h.id},
          {"key", h.key},
          {"name", h.name},
          {"defaultExpiryDays", h.default_expiry_days},
          {"ownerId", h.owner_id},
          {"createdAt", FormatTimestamp(h.created_at)},
          {"updatedAt", FormatTimestamp(h.updated_at)},
          {"categoryId", OptString(h.category_id)},
          {"tagIds", ToJsonArray(h.tag_ids)},
          {"previewImage", OptString(h.preview_image)},
          {"defaultOrgRole", OptString(h.default_org_role)},
          {"defaultExpiryTemplateId", OptString(h.default_expiry_template_id)},
          {"rootEntryId", OptString(h.root_entry_id)}};
}

json::object EntryJson(const kb::Entry& e, bool with_content) {
  json::object o{{"id", e.id},
                 {"title", e.title},
                 {"key", e.key},
                 {"originalLanguage", e.original_language},
                 {"status", kb::EntryStatusName(e.status)},
                 {"expiryDate", FormatTimestamp(e.expiry_at)},
                 {"hubId", e.hub_id},
                 {"hubKey", e.hub_key},
                 {"ownerId", e.owner_id},
                 {"previewImage", OptString(e.preview_image)},
                 {"version", e.version},
                 {"createdAt", FormatTimestamp(e.created_at)},
                 {"updatedAt", FormatTimestamp(e.updated_at)},
                 {"contentUpdatedAt", FormatTimestamp(e.content_updated_at)},
                 {"publishedAt", e.published_at ? json::value(FormatTimestamp(*e.published_at)) : json::value(nullptr)}};
  if (with_content) o["content"] = e.content;
  return o;
}

json::object TranslationSummaryJson(const kb::TranslationSummary& s) {
  return {{"language", s.language},
          {"title", s.title},
          {"status", kb::TranslationStatusName(s.status)},
          {"staleBlockCount", s.stale_block_count},
          {"totalBlockCount", s.total_block_count},
          {"missingBlockCount", s.missing_block_count},
          {"machineTranslatedBlockCount", s.machine_block_count},
          {"updatedAt", FormatTimestamp(s.updated_at)}};
}

json::object EntryViewJson(const kb::EntryView& v) {
  json::object o = EntryJson(v.entry, true);
  o["language"] = v.language;
  o["isTranslation"] = v.is_translation;
  o["translationPending"] = v.translation_pending;
  o["translation"] = v.translation ? json::value(TranslationSummaryJson(*v.translation)) : json::value(nullptr);
  return o;
}

Schema HubSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("key", Schema::String()),
      Required("name", Schema::String()),
      Required("defaultExpiryDays", Schema::Integer()),
      Required("ownerId", Schema::Uuid()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
      Required("categoryId", Schema::Uuid().Nullable()),
      Required("tagIds", Schema::Array(Schema::Uuid())),
      Required("previewImage", Schema::String().Nullable()),
      Required("defaultOrgRole", Schema::String().Enum({"Viewer", "Editor"}).Nullable()),
      Required("defaultExpiryTemplateId", Schema::Uuid().Nullable()),
      Required("rootEntryId", Schema::Uuid().Nullable()),
  });
}

Schema TranslationSummarySchema() {
  return Schema::Object({
      Required("language", Schema::String()),
      Required("title", Schema::String()),
      Required("status", Schema::String().Enum({"Draft", "UpToDate", "Stale"})),
      Required("staleBlockCount", Schema::Integer()),
      Required("totalBlockCount", Schema::Integer()),
      Required("missingBlockCount", Schema::Integer()),
      Required("machineTranslatedBlockCount",
               Schema::Integer().Describe("machine-translated blocks no person has edited or confirmed yet")),
      Required("updatedAt", Schema::Timestamp()),
  });
}

Schema EntrySchema(bool with_content) {
  std::vector<Property> props = {
      Required("id", Schema::Uuid()),
      Required("title", Schema::String()),
      Required("key", Schema::String()),
      Required("originalLanguage", Schema::String()),
      Required("status", Schema::String().Enum({"Draft", "Published", "ExpiringSoon", "Warning", "Expired"})),
      Required("expiryDate", Schema::Timestamp()),
      Required("hubId", Schema::Uuid()),
      Required("hubKey", Schema::String()),
      Required("ownerId", Schema::Uuid()),
      Required("previewImage", Schema::String().Nullable()),
      Required("version", Schema::Integer()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
      Required("contentUpdatedAt", Schema::Timestamp()),
      Required("publishedAt", Schema::Timestamp().Nullable()),
  };
  if (with_content) {
    props.push_back(Required("content", Schema::String().Describe("editor document JSON, serialized")));
    props.push_back(Required("language", Schema::String().Describe("the language served")));
    props.push_back(Required("isTranslation", Schema::Boolean()));
    props.push_back(Required("translationPending",
                             Schema::Boolean().Describe(
                                 "a machine translation into the language asked for is queued (an OnDemand "
                                 "language without an up-to-date translation); a later read has it")));
    props.push_back(Required("translation", TranslationSummarySchema().Nullable()));
  }
  return Schema::Object(std::move(props));
}

}  // namespace credence::http
