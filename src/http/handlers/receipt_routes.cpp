// Decision receipts and the tenants' decision logs (docs/receipts.md): a
// decision's receipt, the log's origin and verifier keys, its signed
// checkpoints (newest, by size, a page), consistency proofs. Thin: the
// receipt's JSON is trust::ReceiptJson, the one `credence verify-receipt`
// reads.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <charconv>

#include "core/ids.h"
#include "http/handlers/chain_json.h"
#include "http/handlers/retention_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "integrity/encoding.h"
#include "trust/receipt_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

bool IsTreeSize(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size() && v >= 0 && (s.size() == 1 || s[0] != '0');
}

// An optional tree size in the query: nullopt when absent, a 400 naming it
// when it is not a non-negative integer.
Result<std::optional<int64_t>> SizeParam(const HttpRequest& request, const char* name) {
  auto text = request.QueryParam(name);
  if (!text) return std::optional<int64_t>{};
  if (!IsTreeSize(*text)) return Error::Validation({{name, "must be a tree size: a non-negative integer"}});
  return std::optional<int64_t>(std::stoll(std::string(*text)));
}

json::array HashesJson(const std::vector<integrity::merkle::Hash>& hashes) {
  json::array out;
  for (const auto& h : hashes) out.emplace_back(integrity::Base64Encode(integrity::merkle::Bytes(h)));
  return out;
}

json::object CheckpointJson(const integrity::StoredCheckpoint& c) {
  return json::object{{"treeSize", c.size},
                      {"rootHash", integrity::Base64Encode(integrity::merkle::Bytes(c.root))},
                      {"signedAt", FormatTimestamp(c.signed_at)},
                      {"keyId", c.key_id},
                      {"checkpoint", c.note}};
}

Schema HashListSchema(const char* what) {
  return Schema::Array(Schema::String().Describe("a SHA-256 hash, base64 (RFC 4648 section 4, padded)"))
      .Describe(what);
}

Schema CheckpointSchema() {
  return Schema::Object({
      Required("treeSize", Schema::Integer().Min(0)),
      Required("rootHash", Schema::String().Describe("the root hash, base64")),
      Required("signedAt", Schema::Timestamp()),
      Required("keyId", Schema::String().Describe("the chain-signing key's id (/.well-known/credence-chain-keys)")),
      Required("checkpoint", Schema::String().Describe(
                                 "the C2SP tlog-checkpoint as a C2SP signed note: origin, tree size and base64 root "
                                 "hash, a blank line, the Ed25519 signature line; store it as it is")),
  });
}

const Schema kSizePath = Schema::String().Check(&IsTreeSize, "must be a tree size: a non-negative integer");

}  // namespace

void AddReceiptRoutes(Router& router, const Services& s) {
  const trust::ReceiptService& receipts = s.receipts;

  router.Add({Method::kGet, "/api/trust/decisions/{decisionId}/receipt", Auth::kUserOrMachine, "trust:read",
              [&receipts, &s](RequestContext& ctx) {
                const std::string id = CanonicalUuid(ctx.PathParam("decisionId"));
                auto tree_size = SizeParam(ctx.request, "treeSize");
                if (!tree_size) return Problem(ctx, tree_size.error());
                auto from = SizeParam(ctx.request, "consistencyFrom");
                if (!from) return Problem(ctx, from.error());
                auto r = receipts.GetReceipt(ctx.Caller(), id, *tree_size, *from);
                if (!r && r.error().kind == ErrorKind::kNotFound)
                  if (auto archived = ArchivedDecision(s, ctx.Caller().tenant_id, id)) return Problem(ctx, *archived);
                if (!r) return Problem(ctx, r.error());
                HttpResponse out;
                out.status = 200;
                out.content_type = "application/json";
                out.body = trust::ReceiptJson(*r);
                return out;
              },
              {.summary = "A receipt an auditor checks offline (credence verify-receipt, docs/receipts.md): the "
                          "decision's ledger record exactly as its hash commits to it, its leaf index, an RFC 9162 "
                          "inclusion proof to a signed checkpoint of the tenant's log, and that checkpoint. 409 "
                          "receipt_not_ready until a checkpoint covers the decision (Retry-After).",
               .tag = "trust",
               .response = Schema::Object({
                   Required("format", Schema::String().Enum({trust::kReceiptFormat})),
                   Required("decisionId", Schema::Uuid()),
                   Required("record",
                            Schema::Object({
                                Required("tenantId", Schema::Uuid()),
                                Required("sequence", Schema::Integer().Min(1)),
                                Required("hashFormat", Schema::Integer().Min(1).Max(3)),
                                Required("previousHash", Schema::String().Describe("lowercase hex")),
                                Required("header", Schema::String().Describe("the hashed header, byte for byte")),
                                Required("evidence", Schema::Array(Schema::String()).Describe(
                                                         "each source's evidence, byte for byte, in record order")),
                                Required("hash", Schema::String().Describe(
                                                     "lowercase hex of the record's hash; its 32 bytes are the leaf")),
                            })),
                   Required("leafIndex", Schema::Integer().Min(0)),
                   Required("treeSize", Schema::Integer().Min(1)),
                   Required("inclusionProof", HashListSchema("RFC 9162 2.1.3.1, the leaf's sibling first")),
                   Required("checkpoint", Schema::String().Describe("the signed checkpoint (a C2SP signed note)")),
                   Required("verifierKey", Schema::String().Describe(
                                               "the key that signed it, <origin>+<key id>+<base64>; compare it with "
                                               "the one you hold")),
                   Optional("consistency", Schema::Object({
                                               Required("fromSize", Schema::Integer().Min(0)),
                                               Required("proof", HashListSchema("RFC 9162 2.1.4.1")),
                                           }).Describe("with ?consistencyFrom: from that tree size to treeSize")),
               }),
               .query = {{"treeSize", Schema::Integer().Min(1), false,
                          "prove against the checkpoint of this tree size (default: the newest)"},
                         {"consistencyFrom", Schema::Integer().Min(0), false,
                          "also prove the log grew from this tree size (a checkpoint you hold) to treeSize"}},
               .errors = {400, 403, 404, 409, 410},
               .path_params = {{"decisionId", Schema::Uuid()}}}});

  router.Add({Method::kGet, "/api/trust/log", Auth::kUserOrMachine, "trust:read",
              [&receipts](RequestContext& ctx) {
                auto log = receipts.Log(ctx.Caller());
                if (!log) return Problem(ctx, log.error());
                json::array keys;
                for (const auto& k : log->verifier_keys) keys.emplace_back(integrity::note::Encode(k));
                json::value current = keys.empty() ? json::value(nullptr) : keys.front();
                return JsonResponse(
                    200, json::object{{"origin", log->origin},
                                      {"verifierKey", current},
                                      {"verifierKeys", std::move(keys)},
                                      {"firstSequence", log->first_sequence},
                                      {"treeSize", log->tree_size},
                                      {"checkpoint", log->newest ? json::value(CheckpointJson(*log->newest))
                                                                 : json::value(nullptr)}});
              },
              {.summary = "The tenant's decision log: its origin, the verifier keys of its checkpoints (C2SP "
                          "signed-note, <origin>+<key id>+<base64>, the current key first), the sequence of its "
                          "first leaf, its size and newest checkpoint (docs/receipts.md).",
               .tag = "trust",
               .response = Schema::Object({
                   Required("origin", Schema::String()),
                   Required("verifierKey", Schema::String().Nullable().Describe("the current key's")),
                   Required("verifierKeys", Schema::Array(Schema::String()).Describe(
                                                "every key whose checkpoints verify, the current one first")),
                   Required("firstSequence", Schema::Integer().Min(1).Describe(
                                                 "the record of leaf 0: leaf i is record firstSequence + i")),
                   Required("treeSize", Schema::Integer().Min(0)),
                   Required("checkpoint", CheckpointSchema().Nullable()),
               }),
               .errors = {403}}});

  router.Add({Method::kGet, "/api/trust/log/checkpoint", Auth::kUserOrMachine, "trust:read",
              [&receipts](RequestContext& ctx) {
                auto c = receipts.Checkpoint(ctx.Caller(), std::nullopt);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, CheckpointJson(*c));
              },
              {.summary = "The newest signed checkpoint of the tenant's decision log; 404 checkpoint_not_found "
                          "before the first.",
               .tag = "trust",
               .response = CheckpointSchema(),
               .errors = {403, 404}}});

  router.Add({Method::kGet, "/api/trust/log/checkpoints", Auth::kUserOrMachine, "trust:read",
              [&receipts](RequestContext& ctx) {
                auto limit = IntParam(ctx.request, "limit", 50);
                if (!limit || *limit < 1 || *limit > 500)
                  return Problem(ctx, Error::Validation({{"limit", "must be an integer from 1 to 500"}}));
                auto before = IntParam(ctx.request, "cursor", 0);
                if (!before) return Problem(ctx, Error::Validation({{"cursor", "must be a non-negative integer"}}));
                auto list = receipts.Checkpoints(ctx.Caller(), *before, *limit);
                if (!list) return Problem(ctx, list.error());
                json::array items;
                for (const auto& c : *list) items.push_back(CheckpointJson(c));
                json::value next = nullptr;
                if (static_cast<int64_t>(list->size()) == *limit) next = list->back().size;
                return JsonResponse(200, json::object{{"items", std::move(items)}, {"nextCursor", next}});
              },
              {.summary = "The signed checkpoints of the tenant's decision log, newest first.",
               .tag = "trust",
               .response = Schema::Object({
                   Required("items", Schema::Array(CheckpointSchema())),
                   Required("nextCursor", Schema::Integer().Nullable().Describe("the cursor of the next page")),
               }),
               .query = {{"limit", Schema::Integer().Min(1).Max(500), false, "default 50"},
                         {"cursor", Schema::Integer().Min(0), false, "nextCursor of the previous page"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet, "/api/trust/log/checkpoints/{treeSize}", Auth::kUserOrMachine, "trust:read",
              [&receipts](RequestContext& ctx) {
                auto c = receipts.Checkpoint(ctx.Caller(), std::stoll(ctx.PathParam("treeSize")));
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, CheckpointJson(*c));
              },
              {.summary = "The signed checkpoint of the tenant's decision log at a tree size; 404 "
                          "checkpoint_not_found when none was signed at that size.",
               .tag = "trust",
               .response = CheckpointSchema(),
               .errors = {400, 403, 404},
               .path_params = {{"treeSize", kSizePath}}}});

  router.Add({Method::kGet, "/api/trust/log/consistency", Auth::kUserOrMachine, "trust:read",
              [&receipts](RequestContext& ctx) {
                auto from = SizeParam(ctx.request, "from");
                if (!from) return Problem(ctx, from.error());
                if (!*from) return Problem(ctx, Error::Validation({{"from", "is required: the tree size you hold"}}));
                auto to = SizeParam(ctx.request, "to");
                if (!to) return Problem(ctx, to.error());
                auto c = receipts.Consistency(ctx.Caller(), **from, *to);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, json::object{{"fromSize", c->from},
                                                      {"toSize", c->to},
                                                      {"proof", HashesJson(c->proof)},
                                                      {"checkpoint", CheckpointJson(c->to_checkpoint)}});
              },
              {.summary = "An RFC 9162 consistency proof from tree size `from` (a checkpoint you hold) to the "
                          "checkpoint of size `to` (default: the newest), with that checkpoint. from == to and "
                          "from == 0 have empty proofs (docs/receipts.md).",
               .tag = "trust",
               .response = Schema::Object({
                   Required("fromSize", Schema::Integer().Min(0)),
                   Required("toSize", Schema::Integer().Min(0)),
                   Required("proof", HashListSchema("RFC 9162 2.1.4.1")),
                   Required("checkpoint", CheckpointSchema()),
               }),
               .query = {{"from", Schema::Integer().Min(0), true, "the older tree size"},
                         {"to", Schema::Integer().Min(0), false, "the newer tree size (default: the newest checkpoint's)"}},
               .errors = {400, 403, 404}}});
}

}  // namespace credence::http
