#include "core/ids.h"
#include "http/handlers/kb_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "kb/entry_service.h"
#include "kb/translation_service.h"
#include "translation/document_translation.h"

namespace credence::http {
namespace json = boost::json;

namespace {

// BCP 47-shaped: letters, digits and hyphens, 2 to 16 characters.
bool IsLanguageTag(std::string_view s) {
  if (s.size() < 2 || s.size() > 16 || s.front() == '-' || s.back() == '-') return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

Schema LanguageSchema() { return Schema::String().Check(IsLanguageTag, "must be a language code such as en or pt-BR"); }

// The ?language= query parameter: absent means `fallback`.
Result<std::string> LanguageParam(const RequestContext& ctx, const std::string& fallback) {
  auto language = ctx.request.QueryParam("language");
  if (!language || language->empty()) return fallback;
  if (!IsLanguageTag(*language)) return Error::Validation({{"language", "must be a language code such as en or pt-BR"}});
  return *language;
}

Result<int> TakeParam(const RequestContext& ctx) {
  auto take = ctx.request.QueryParam("take");
  if (!take || take->empty()) return kb::kSearchDefaultTake;
  int value = 0;
  for (char c : *take) {
    if (c < '0' || c > '9' || value > kb::kSearchMaxTake) return Error::Validation({{"take", "must be an integer from 1 to 100"}});
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > kb::kSearchMaxTake) return Error::Validation({{"take", "must be an integer from 1 to 100"}});
  return value;
}

const std::vector<std::pair<std::string, Schema>>& EntryIdParam() {
  static const std::vector<std::pair<std::string, Schema>> kParams = {{"id", Schema::Uuid()}};
  return kParams;
}

std::vector<std::pair<std::string, Schema>> TranslationParams() {
  return {{"entryId", Schema::Uuid()}, {"language", LanguageSchema()}};
}

std::string EntryIdOf(const RequestContext& ctx, const char* name = "id") {
  return CanonicalUuid(ctx.PathParam(name));
}

}  // namespace

void AddEntryRoutes(Router& router, const Services& s) {
  const kb::EntryService& entries = s.entries;
  const kb::TranslationService& translations = s.translations;
  const Schema view_schema = EntrySchema(true);
  const Schema list_schema = Schema::Array(EntrySchema(false));

  router.Add({Method::kGet, "/api/entries/hubs/{hubKey}", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto list = entries.ListByHub(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& e : *list) out.push_back(EntryJson(e, false));
                return JsonResponse(200, out);
              },
              {.summary = "Entries of a hub (Hub Viewer+), by title; listings carry no content.",
               .tag = "entries",
               .response = list_schema,
               .errors = {404}}});

  router.Add({Method::kGet, "/api/entries/hubs/{hubKey}/root-entry", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto view = entries.RootEntry(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "The hub's root entry (home page); 404 when none is set.",
               .tag = "entries",
               .response = view_schema,
               .errors = {404}}});

  router.Add({Method::kGet, "/api/entries/search", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                const std::string q = ctx.request.QueryParam("q").value_or("");
                if (q.size() < 2) return Problem(ctx, Error::Validation({{"q", "must be at least 2 characters"}}));
                if (q.size() > 200) return Problem(ctx, Error::Validation({{"q", "must be at most 200 characters"}}));
                auto take = TakeParam(ctx);
                if (!take) return Problem(ctx, take.error());
                auto results = entries.Search(ctx.Caller(), q, ctx.request.QueryParam("hubKey").value_or(""), *take);
                if (!results) return Problem(ctx, results.error());
                json::array out;
                for (const auto& r : *results)
                  out.push_back(json::object{{"id", r.id},
                                             {"title", r.title},
                                             {"key", r.key},
                                             {"hubId", r.hub_id},
                                             {"hubKey", r.hub_key},
                                             {"originalLanguage", r.original_language},
                                             {"status", kb::EntryStatusName(r.status)},
                                             {"snippet", r.snippet}});
                return JsonResponse(200, out);
              },
              {.summary = "Search titles and block text, ranked (titles weigh more); only entries the caller "
                          "may open.",
               .tag = "entries",
               .response = Schema::Array(Schema::Object({
                   Required("id", Schema::Uuid()), Required("title", Schema::String()),
                   Required("key", Schema::String()), Required("hubId", Schema::Uuid()),
                   Required("hubKey", Schema::String()), Required("originalLanguage", Schema::String()),
                   Required("status", Schema::String()), Required("snippet", Schema::String()),
               })),
               .query = {{"q", Schema::String().MinLength(2).MaxLength(200), true, "words to find (prefixes match)"},
                         {"hubKey", Schema::String(), false, "only this hub"},
                         {"take", Schema::Integer().Min(1).Max(kb::kSearchMaxTake), false, "default 15"}}}});

  router.Add({Method::kGet, "/api/entries/expired", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                json::array out;
                for (const auto& e : entries.Expired(ctx.Caller())) out.push_back(EntryJson(e, false));
                return JsonResponse(200, out);
              },
              {.summary = "Entries past their expiry date that the caller may open.",
               .tag = "entries",
               .response = list_schema}});

  router.Add({Method::kGet, "/api/entries/{id}", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto language = LanguageParam(ctx, "en");
                if (!language) return Problem(ctx, language.error());
                auto view = entries.Get(ctx.Caller(), EntryIdOf(ctx), *language);
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "An entry (Entry Viewer+), translated into ?language= (default en) when a translation "
                          "exists; untranslated blocks show the original, removed ones \"[Content removed]\".",
               .tag = "entries",
               .response = view_schema,
               .query = {{"language", LanguageSchema(), false, "default en"}},
               .errors = {404},
               .path_params = EntryIdParam()}});

  static const Schema kCreateEntry = Schema::Object({
      Required("hubKey", Schema::String().MinLength(1).MaxLength(63)),
      Required("key", Schema::String().MinLength(1).MaxLength(100).Check(
                          IsSlug, "must be URL-safe: lowercase letters, digits and inner hyphens")),
      Required("originalLanguage", LanguageSchema()),
      Required("title", Schema::String().MinLength(1).MaxLength(300)),
      Required("content", Schema::String().Describe("editor document JSON, serialized")),
      Optional("expiryDays", Schema::Integer().Min(1).Max(3650)),
      Optional("previewImage", Schema::String().MaxLength(2048).Format("uri").Nullable().Describe("null: none")),
  });
  router.Add({Method::kPost, "/api/entries", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCreateEntry);
                if (!body) return Problem(ctx, body.error());
                kb::NewEntry request;
                request.hub_key = GetString(*body, "hubKey");
                request.key = GetString(*body, "key");
                request.original_language = GetString(*body, "originalLanguage");
                request.title = GetString(*body, "title");
                request.content = GetString(*body, "content");
                if (auto days = GetOptInt(*body, "expiryDays")) request.expiry_days = static_cast<int>(*days);
                request.preview_image = GetOptString(*body, "previewImage");
                auto view = entries.Create(ctx.Caller(), request);
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(201, EntryViewJson(*view));
              },
              {.summary = "Create an entry (Hub Editor+). Blocks get ids; the response carries them.",
               .tag = "entries",
               .request = kCreateEntry,
               .response = view_schema,
               .success_status = 201,
               .errors = {409}}});

  static const Schema kUpdateEntry = Schema::Object({
      Required("title", Schema::String().MinLength(1).MaxLength(300)),
      Required("content", Schema::String().Describe("editor document JSON, serialized")),
      // GET's answer can be sent back: its previewImage may be null.
      Optional("previewImage",
               Schema::String().MaxLength(2048).Format("uri").Nullable().Describe("null or left out: unchanged")),
      Optional("status", Schema::String().Enum({"Draft", "Published", "ExpiringSoon", "Warning", "Expired"})),
  });
  router.Add({Method::kPut, "/api/entries/{id}", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUpdateEntry);
                if (!body) return Problem(ctx, body.error());
                auto language = LanguageParam(ctx, "");
                if (!language) return Problem(ctx, language.error());
                kb::EntryUpdate update;
                update.title = GetString(*body, "title");
                update.content = GetString(*body, "content");
                update.preview_image = GetOptString(*body, "previewImage");
                if (auto status = GetOptString(*body, "status")) update.status = kb::ParseEntryStatus(*status);
                auto view = entries.Update(ctx.Caller(), EntryIdOf(ctx), *language, update);
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "Update an entry (Entry Editor+): re-hashes blocks; translations of changed blocks "
                          "become stale. With ?language= of a translation, updates that translation. A save that "
                          "publishes a draft (status Published) is guarded as Entry.Publish: 422 guard_denied, "
                          "nothing saved.",
               .tag = "entries",
               .request = kUpdateEntry,
               .response = view_schema,
               .query = {{"language", LanguageSchema(), false, "a translation's language"}},
               .errors = {404, 422},
               .path_params = EntryIdParam()}});

  router.Add({Method::kDelete, "/api/entries/{id}", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                kb::DeleteConfirmation confirmation;
                const auto confirm = ctx.request.QueryParam("confirm");
                if (confirm && *confirm != "true" && *confirm != "false")
                  return Problem(ctx, Error::Validation({{"confirm", "must be true or false"}}));
                confirmation.confirmed = confirm && *confirm == "true";
                confirmation.reason = ctx.request.QueryParam("reason").value_or("");
                if (confirmation.reason.size() > 1000)
                  return Problem(ctx, Error::Validation({{"reason", "must be at most 1000 characters"}}));
                if (auto deleted = entries.Delete(ctx.Caller(), EntryIdOf(ctx), confirmation); !deleted)
                  return Problem(ctx, deleted.error());
                return NoContent();
              },
              {.summary = "Delete an entry (its owner); 400 for a hub's root entry; 422 guard_denied when a plugin "
                          "action guard (Entry.Delete) denies it (nothing is deleted): safe-delete denies "
                          "entry_used_by_ai unless confirm=true with a reason.",
               .tag = "entries",
               .success_status = 204,
               .query = {{"confirm", Schema::Boolean(), false,
                          "the caller confirms the delete (safe-delete: the entry was used by AI applications)"},
                         {"reason", Schema::String().MaxLength(1000), false, "why, with confirm=true"}},
               .errors = {400, 404, 422},
               .path_params = EntryIdParam()}});

  router.Add({Method::kPost, "/api/entries/{id}/publish", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto view = entries.Publish(ctx.Caller(), EntryIdOf(ctx));
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "Publish an entry (Entry Editor+). 422 guard_denied (reasonCode, message, metadata, "
                          "pluginId) when a plugin action guard (Entry.Publish) denies it; the entry is unchanged.",
               .tag = "entries",
               .response = view_schema,
               .errors = {404, 422},
               .path_params = EntryIdParam()}});

  static const Schema kTransfer = Schema::Object({Required("newOwnerId", Schema::Uuid())});
  router.Add({Method::kPost, "/api/entries/{id}/transfer-ownership", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kTransfer);
                if (!body) return Problem(ctx, body.error());
                auto view = entries.TransferOwnership(ctx.Caller(), EntryIdOf(ctx),
                                                      CanonicalUuid(GetString(*body, "newOwnerId")));
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "Give the entry to another user of the tenant (Entry Editor+).",
               .tag = "entries",
               .request = kTransfer,
               .response = view_schema,
               .errors = {404},
               .path_params = EntryIdParam()}});

  static const Schema kOriginalLanguage = Schema::Object({Required("languageCode", LanguageSchema())});
  router.Add({Method::kPatch, "/api/entries/{id}/original-language", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kOriginalLanguage);
                if (!body) return Problem(ctx, body.error());
                auto view = entries.ChangeOriginalLanguage(ctx.Caller(), EntryIdOf(ctx), GetString(*body, "languageCode"));
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "Relabel the original's language (Entry Editor+); 409 when a translation in that "
                          "language exists.",
               .tag = "entries",
               .request = kOriginalLanguage,
               .response = view_schema,
               .errors = {404, 409},
               .path_params = EntryIdParam()}});

  router.Add({Method::kPut, "/api/entries/{id}/set-root", Auth::kUser, "",
              [&entries](RequestContext& ctx) {
                auto view = entries.SetRoot(ctx.Caller(), EntryIdOf(ctx));
                if (!view) return Problem(ctx, view.error());
                return JsonResponse(200, EntryViewJson(*view));
              },
              {.summary = "Make the entry its hub's root entry, replacing the previous one (Entry Editor+).",
               .tag = "entries",
               .response = view_schema,
               .errors = {404},
               .path_params = EntryIdParam()}});

  // Translations.
  router.Add({Method::kGet, "/api/entries/{entryId}/translations", Auth::kUser, "",
              [&translations](RequestContext& ctx) {
                auto list = translations.List(ctx.Caller(), EntryIdOf(ctx, "entryId"));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& t : *list) out.push_back(TranslationSummaryJson(t));
                return JsonResponse(200, out);
              },
              {.summary = "Translations of an entry with their staleness (Entry Viewer+).",
               .tag = "translations",
               .response = Schema::Array(TranslationSummarySchema()),
               .errors = {404},
               .path_params = {{"entryId", Schema::Uuid()}}}});

  const Schema full_translation = Schema::Object({Required("language", Schema::String()),
                                                  Required("title", Schema::String()),
                                                  Required("content", Schema::String()),
                                                  Required("status", Schema::String()),
                                                  Required("staleBlockCount", Schema::Integer()),
                                                  Required("totalBlockCount", Schema::Integer()),
                                                  Required("missingBlockCount", Schema::Integer()),
                                                  Required("machineTranslatedBlockCount", Schema::Integer()),
                                                  Required("updatedAt", Schema::Timestamp())});
  auto full_json = [](const kb::FullTranslation& t) {
    json::object o = TranslationSummaryJson(t.summary);
    o["content"] = t.content;
    return o;
  };

  router.Add({Method::kGet, "/api/entries/{entryId}/translations/{language}", Auth::kUser, "",
              [&translations, full_json](RequestContext& ctx) {
                auto t = translations.Get(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, full_json(*t));
              },
              {.summary = "A full translation (Entry Viewer+).",
               .tag = "translations",
               .response = full_translation,
               .errors = {404},
               .path_params = TranslationParams()}});

  static const Schema kCreateTranslation = Schema::Object({
      Optional("title", Schema::String().MinLength(1).MaxLength(300).Describe("required unless useAutoTranslation")),
      Optional("content", Schema::String().Describe("editor document whose blocks carry the original's blockIds; "
                                                    "required unless useAutoTranslation")),
      Optional("useAutoTranslation",
               Schema::Boolean().Describe("machine-translate the missing and stale blocks now, synchronously "
                                          "(docs/machine-translation.md); title and content are then ignored. "
                                          "Also on an existing translation.")),
      Optional("provider", Schema::String().MaxLength(64).Describe(
                               "apertium, libretranslate or deepl; default: the server's default provider")),
  });
  const translation::MachineTranslationService& machine = s.machine_translation;
  router.Add({Method::kGet, "/api/machine-translation", Auth::kUser, "",
              [&machine](RequestContext&) {
                json::array providers;
                for (const auto& name : machine.Providers()) providers.emplace_back(name);
                return JsonResponse(200, json::object{{"available", !providers.empty()},
                                                      {"providers", std::move(providers)}});
              },
              {.summary = "Whether this server can machine-translate (useAutoTranslation), and with which "
                          "providers, the default first (docs/machine-translation.md).",
               .tag = "translations",
               .response = Schema::Object({Required("available", Schema::Boolean()),
                                           Required("providers", Schema::Array(Schema::String()))})}});
  router.Add({Method::kPost, "/api/entries/{entryId}/translations/{language}", Auth::kUser, "",
              [&translations, &machine, full_json](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCreateTranslation);
                if (!body) return Problem(ctx, body.error());
                if (GetBool(*body, "useAutoTranslation")) {
                  std::optional<std::string> provider;
                  if (body->contains("provider")) provider = GetString(*body, "provider");
                  auto t = machine.TranslateEntry(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"),
                                                  provider);
                  if (!t) return Problem(ctx, t.error());
                  return JsonResponse(201, full_json(*t));
                }
                std::vector<FieldError> missing;
                for (const char* field : {"title", "content"})
                  if (!body->contains(field)) missing.push_back({field, "is required unless useAutoTranslation"});
                if (!missing.empty()) return Problem(ctx, Error::Validation(std::move(missing)));
                auto t = translations.Create(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"),
                                             GetString(*body, "title"), GetString(*body, "content"));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(201, full_json(*t));
              },
              {.summary = "Create a translation (Entry Editor+); every block carries the blockId of the original "
                          "block it translates. With useAutoTranslation, machine-translates the missing and stale "
                          "blocks synchronously (marked machine-translated until a person edits or confirms them); "
                          "502 when the provider fails (mt_auth_failed, mt_quota_exceeded, mt_timeout, "
                          "mt_unavailable, mt_bad_response).",
               .tag = "translations",
               .request = kCreateTranslation,
               .response = full_translation,
               .success_status = 201,
               .errors = {404, 409, 502},
               .path_params = TranslationParams()}});

  router.Add({Method::kGet, "/api/entries/{entryId}/translations/{language}/status", Auth::kUser, "",
              [&translations](RequestContext& ctx) {
                auto t = translations.GetStatus(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TranslationSummaryJson(*t));
              },
              {.summary = "A translation's status: Draft (incomplete), Stale or UpToDate.",
               .tag = "translations",
               .response = TranslationSummarySchema(),
               .errors = {404},
               .path_params = TranslationParams()}});

  static const Schema kMarkRequest = Schema::Object({Optional(
      "blockIds", Schema::Array(Schema::Uuid()).MinItems(1).MaxItems(10000).Describe(
                      "only these blocks of the translation (a translator confirming one block); without a body, "
                      "every block"))});
  router.Add({Method::kPut, "/api/entries/{entryId}/translations/{language}/mark-uptodate", Auth::kUser, "",
              [&translations](RequestContext& ctx) {
                std::optional<std::vector<std::string>> block_ids;
                if (!ctx.request.body.empty()) {
                  auto body = ParseBody(ctx.request, kMarkRequest);
                  if (!body) return Problem(ctx, body.error());
                  if (const auto* ids = body->if_contains("blockIds")) {
                    block_ids.emplace();
                    for (const auto& id : ids->as_array()) block_ids->push_back(CanonicalUuid(std::string(id.as_string())));
                  }
                }
                auto t = translations.MarkUpToDate(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"),
                                                   block_ids);
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TranslationSummaryJson(*t));
              },
              {.summary = "Declare the translation's blocks current with their original (Entry Editor+): every "
                          "block, or the blockIds given; 422 guard_denied when a plugin action guard "
                          "(Translation.MarkUpToDate) denies it.",
               .tag = "translations",
               .request = kMarkRequest,
               .response = TranslationSummarySchema(),
               .errors = {404, 422},
               .path_params = TranslationParams()}});

  router.Add({Method::kGet, "/api/entries/{entryId}/translations/{language}/stale-blocks", Auth::kUser, "",
              [&translations](RequestContext& ctx) {
                auto blocks = translations.StaleBlocks(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"));
                if (!blocks) return Problem(ctx, blocks.error());
                json::array out;
                for (const auto& b : *blocks)
                  out.push_back(json::object{{"blockId", b.block_id},
                                             {"translatedFromHash", b.translated_from_hash},
                                             {"currentHash", b.current_hash},
                                             {"originalText", b.original_text},
                                             {"originalNode", b.original_node},
                                             {"translatedNode", b.translated_node},
                                             {"originalTextThen", b.original_text_then
                                                                      ? json::value(*b.original_text_then)
                                                                      : json::value(nullptr)}});
                return JsonResponse(200, out);
              },
              {.summary = "Translated blocks whose original changed since they were translated.",
               .tag = "translations",
               .response = Schema::Array(Schema::Object({
                   Required("blockId", Schema::Uuid()), Required("translatedFromHash", Schema::String()),
                   Required("currentHash", Schema::String()), Required("originalText", Schema::String()),
                   Required("originalNode", Schema::String()), Required("translatedNode", Schema::String()),
                   Required("originalTextThen", Schema::String().Nullable().Describe(
                                                    "the original's text the translation was made from (to show "
                                                    "the change); null when it was not kept")),
               })),
               .errors = {404},
               .path_params = TranslationParams()}});

  router.Add({Method::kDelete, "/api/entries/{entryId}/translations/{language}", Auth::kUser, "",
              [&translations](RequestContext& ctx) {
                if (auto deleted = translations.Delete(ctx.Caller(), EntryIdOf(ctx, "entryId"), ctx.PathParam("language"));
                    !deleted)
                  return Problem(ctx, deleted.error());
                return NoContent();
              },
              {.summary = "Delete a translation and all its blocks (Entry Editor+).",
               .tag = "translations",
               .success_status = 204,
               .errors = {404},
               .path_params = TranslationParams()}});
}

}  // namespace credence::http
