#include "http/handlers/chain_json.h"

#include <charconv>

#include <boost/json/array.hpp>

#include "http/json_io.h"

namespace credence::http {
namespace json = boost::json;

namespace {

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

std::optional<int64_t> IntParam(const HttpRequest& request, std::string_view name, int64_t fallback) {
  auto v = request.QueryParam(name);
  if (!v) return fallback;
  int64_t out = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || p != v->data() + v->size() || out < 0) return std::nullopt;
  return out;
}

Result<std::optional<integrity::OutsideHead>> OutsideHeadParams(const HttpRequest& request) {
  auto seq = request.QueryParam("headSequence");
  auto hash = request.QueryParam("headHash");
  auto signed_at = request.QueryParam("headSignedAt");
  auto key_id = request.QueryParam("headKeyId");
  auto signature = request.QueryParam("headSignature");
  if (!seq && !hash && !signed_at && !key_id && !signature) return std::optional<integrity::OutsideHead>{};
  std::vector<FieldError> bad;
  integrity::OutsideHead out;
  auto n = IntParam(request, "headSequence", 0);
  if (!seq || !n || *n < 1) bad.push_back({"headSequence", "an outside head needs its sequence, a positive integer"});
  if (!hash || !IsHex64(*hash)) bad.push_back({"headHash", "an outside head needs its hash: 64 lowercase hex digits"});
  const bool any_signature = signed_at || key_id || signature;
  if (any_signature && !(signed_at && key_id && signature))
    bad.push_back({"headSignature", "a signature needs headSignedAt, headKeyId and headSignature together"});
  std::optional<TimeMs> at;
  if (signed_at) {
    at = ParseTimestamp(*signed_at);
    if (!at) bad.push_back({"headSignedAt", "must be an RFC 3339 time"});
  }
  if (!bad.empty()) return Error::Validation(std::move(bad));
  out.seq = *n;
  out.hash = *hash;
  out.signed_at = at;
  out.key_id = key_id;
  out.signature = signature;
  return std::optional<integrity::OutsideHead>(std::move(out));
}

std::vector<QueryParamDoc> WithOutsideHeadQuery(std::vector<QueryParamDoc> query) {
  query.push_back({"headSequence", Schema::Integer().Min(1), false, "an outside head: its sequence"});
  query.push_back({"headHash", Schema::String(), false, "an outside head: its hash (64 hex digits)"});
  query.push_back({"headSignedAt", Schema::Timestamp(), false, "an outside head's signing time"});
  query.push_back({"headKeyId", Schema::String(), false, "the key that signed the outside head"});
  query.push_back({"headSignature", Schema::String(), false, "the outside head's signature (base64url)"});
  return query;
}

json::object HeadCheckJson(const std::optional<integrity::HeadCheck>& check) {
  json::object heads{{"checked", 0}, {"newestSequence", nullptr}, {"firstInvalid", nullptr}};
  if (!check) return heads;
  const auto& h = *check;
  heads["checked"] = h.checked;
  if (h.newest_seq) heads["newestSequence"] = *h.newest_seq;
  if (!h.ok) {
    heads["firstInvalid"] = json::object{
        {"sequence", h.first_invalid_seq ? json::value(*h.first_invalid_seq) : json::value(nullptr)},
        {"signedAt", h.first_invalid_signed_at ? json::value(FormatTimestamp(*h.first_invalid_signed_at))
                                               : json::value(nullptr)},
        {"outside", h.first_invalid_is_outside},
        {"problem", h.problem}};
  }
  return heads;
}

Schema HeadCheckSchema() {
  return Schema::Object({
      Required("checked", Schema::Integer().Min(0)),
      Required("newestSequence", Schema::Integer().Nullable()),
      Required("firstInvalid", Schema::Object({
                                   Required("sequence", Schema::Integer().Nullable()),
                                   Required("signedAt", Schema::Timestamp().Nullable()),
                                   Required("outside", Schema::Boolean().Describe("the head given in the query")),
                                   Required("problem", Schema::String()),
                               })
                                   .Nullable()),
  });
}

json::object SignedHeadsJson(const std::vector<integrity::SignedHead>& heads, int64_t limit) {
  json::array items;
  for (const auto& h : heads)
    items.push_back(json::object{{"chain", h.chain},
                                 {"tenantId", h.tenant_id},
                                 {"sequence", h.seq},
                                 {"hash", h.hash},
                                 {"signedAt", FormatTimestamp(h.signed_at)},
                                 {"keyId", h.key_id},
                                 {"signature", h.signature}});
  json::value next = nullptr;
  if (static_cast<int64_t>(heads.size()) == limit && !heads.empty()) next = std::to_string(heads.back().seq);
  return json::object{{"items", std::move(items)}, {"nextCursor", next}};
}

Schema SignedHeadsSchema() {
  return Schema::Object({
      Required("items", Schema::Array(Schema::Object({
                            Required("chain", Schema::String()),
                            Required("tenantId", Schema::Uuid()),
                            Required("sequence", Schema::Integer().Min(1)),
                            Required("hash", Schema::String()),
                            Required("signedAt", Schema::Timestamp()),
                            Required("keyId", Schema::String()),
                            Required("signature", Schema::String()),
                        }))),
      Required("nextCursor", Schema::String().Nullable().Describe("pass as cursor for older heads")),
  });
}

}  // namespace credence::http
