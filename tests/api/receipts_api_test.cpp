// Decision receipts (issue 28; docs/receipts.md) over real HTTP, checked
// offline by the real binary (`credence verify-receipt`): a receipt waits
// for a checkpoint, then verifies with the tenant's published key; an
// altered record, proof, checkpoint or signature does not; consistency
// between checkpoints; another tenant's decisions are 404; scopes and bad
// input; a history rewritten behind a published checkpoint fails the
// consistency proof; records archived out of the database keep their
// leaves, so the receipts of those that remain still verify. SQLite and
// PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/session.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/http_client.h"
#include "support/server_process.h"
#include "support/store_sql.h"
#include "support/temp_dir.h"

namespace credence::test {
namespace {

namespace json = boost::json;

std::string Write(const TempDir& dir, const std::string& name, const std::string& content) {
  const std::string path = dir.path + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// `credence verify-receipt ARGS...`: its exit code and first line.
std::pair<int, std::string> Verify(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"verify-receipt"};
  all.insert(all.end(), args.begin(), args.end());
  const auto r = RunCredence(all);
  std::string first = r.out.substr(0, r.out.find('\n'));
  if (first.empty()) first = r.err;
  return {r.exit_code, first};
}

std::string Evaluate(HttpClient& client, const std::string& token, int i) {
  auto r = client.Post("/api/trust/evaluate",
                       {{"sources", json::array{"x:" + std::to_string(i), "wiki:page-" + std::to_string(i)}},
                        {"context", {{"actorLabel", "receipts-bot"}, {"channel", "internal"}}}},
                       token);
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? Str(r.Json(), "decisionId") : "";
}

// A string member of the receipt's JSON text replaced once.
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class Receipts : public ApiTest {};

TEST_F(Receipts, AReceiptVerifiesOfflineAndNoAlteredPartDoes) {
  TestTenant t = CreateTenant(api(), "rcpt");
  TestTenant other = CreateTenant(api(), "rcpt-other");
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(Evaluate(api(), t.token("viewer"), i));
  const std::string path = "/api/trust/decisions/" + ids[1] + "/receipt";

  // Before a checkpoint covers it: 409 with Retry-After.
  auto early = api().Get(path, t.token("viewer"));
  ExpectProblem(early, 409, "receipt_not_ready");
  EXPECT_FALSE(early.Header("retry-after").empty());
  auto run = RunJobs(api());
  EXPECT_GE(run.at("checkpoints").at("signed").as_int64(), 1);

  auto log = api().Get("/api/trust/log", t.token("viewer"));
  ASSERT_EQ(log.status, 200) << log.body;
  const std::string origin = Str(log.Json(), "origin");
  EXPECT_TRUE(origin.ends_with("/ledger/" + t.id)) << origin;
  const std::string key = Str(log.Json(), "verifierKey");
  EXPECT_TRUE(key.starts_with(origin + "+")) << key;
  EXPECT_EQ(log.Json().at("firstSequence").as_int64(), 1);
  EXPECT_EQ(log.Json().at("treeSize").as_int64(), 3);
  EXPECT_EQ(log.Json().at("checkpoint").at("treeSize").as_int64(), 3);

  auto receipt = api().Get(path, t.token("viewer"));
  ASSERT_EQ(receipt.status, 200) << receipt.body;
  const json::value doc = receipt.Json();
  EXPECT_EQ(Str(doc, "decisionId"), ids[1]);
  EXPECT_EQ(doc.at("leafIndex").as_int64(), 1);
  EXPECT_EQ(doc.at("treeSize").as_int64(), 3);
  EXPECT_EQ(doc.at("record").at("sequence").as_int64(), 2);
  EXPECT_LE(doc.at("inclusionProof").as_array().size(), 2u);  // ceil(log2 3)
  EXPECT_EQ(Str(doc, "verifierKey"), key);

  TempDir dir("credence-receipts");
  const std::string file = Write(dir, "receipt.json", receipt.body);
  const std::string key_file = Write(dir, "key.txt", key + "\n");
  auto ok = Verify({file, "--key", key_file});
  EXPECT_EQ(ok.first, 0) << ok.second;
  EXPECT_EQ(ok.second, "valid");
  EXPECT_EQ(Verify({file, "--key", key}).first, 0);
  EXPECT_EQ(Verify({file}).first, 0);  // the receipt's own key: consistent, says so
  // The deployment's raw public key, as /.well-known/credence-chain-keys lists it, verifies too.
  auto listed = api().Get("/.well-known/credence-chain-keys");
  ASSERT_EQ(listed.status, 200);
  const json::value chain_keys = listed.Json();
  std::string raw_key;
  for (const auto& k : chain_keys.at("keys").as_array())
    if (Str(k, "keyId") == Str(chain_keys, "currentKeyId")) raw_key = Str(k, "publicKey");
  EXPECT_EQ(Verify({file, "--key", raw_key}).first, 0) << raw_key;

  // The record (its evidence, its header), a proof hash, the checkpoint's
  // size, its signature: each altered, each refused with what failed.
  const std::string proof0(doc.at("inclusionProof").as_array()[0].as_string());
  struct Case {
    std::string name, text, says;
  };
  const std::string note = Str(doc, "checkpoint");
  const std::string sig = note.substr(note.rfind(' ') + 1, 20);
  std::string flipped_sig = sig;
  flipped_sig[8] = flipped_sig[8] == 'A' ? 'B' : 'A';
  const std::vector<Case> cases = {
      {"evidence", Replaced(receipt.body, "source_unresolved", "source_unresolvex"),
       "the record does not match its hash"},
      {"header", Replaced(receipt.body, "receipts-bot", "receipts-bit"), "the record does not match its hash"},
      {"proof", Replaced(receipt.body, proof0, std::string(proof0[0] == 'A' ? "B" : "A") + proof0.substr(1)),
       "the inclusion proof does not hold"},
      {"checkpoint", Replaced(receipt.body, "\\n3\\n", "\\n4\\n"), "does not verify"},
      {"signature", Replaced(receipt.body, sig, flipped_sig), "does not verify"},
      {"leaf", Replaced(receipt.body, "\"leafIndex\":1", "\"leafIndex\":2"), "the inclusion proof does not hold"},
  };
  for (const auto& c : cases) {
    const auto v = Verify({Write(dir, c.name + ".json", c.text), "--key", key_file});
    EXPECT_EQ(v.first, 1) << c.name << ": " << v.second;
    EXPECT_TRUE(v.second.starts_with("invalid: ")) << c.name << ": " << v.second;
    EXPECT_NE(v.second.find(c.says), std::string::npos) << c.name << ": " << v.second;
  }
  // Another tenant's key does not verify this tenant's checkpoint.
  const std::string other_key = Str(api().Get("/api/trust/log", other.token("viewer")).Json(), "verifierKey");
  auto foreign = Verify({file, "--key", other_key});
  EXPECT_EQ(foreign.first, 1);
  EXPECT_NE(foreign.second.find("no key given is named"), std::string::npos) << foreign.second;
  // Usage errors are 2.
  EXPECT_EQ(Verify({}).first, 2);
  EXPECT_EQ(Verify({file, "--key", "not a key"}).first, 2);
  EXPECT_EQ(Verify({dir.path + "/missing.json"}).first, 2);
}

TEST_F(Receipts, OtherTenantsDecisionsAreNotFoundAndScopesHold) {
  TestTenant t = CreateTenant(api(), "rcpt-iso");
  TestTenant other = CreateTenant(api(), "rcpt-iso-other");
  const std::string id = Evaluate(api(), t.token("viewer"), 7);
  RunJobs(api());
  ASSERT_EQ(api().Get("/api/trust/decisions/" + id + "/receipt", t.token("viewer")).status, 200);
  // Another tenant: 404 as for an unknown decision, and a log of its own.
  ExpectProblem(api().Get("/api/trust/decisions/" + id + "/receipt", other.token("admin")), 404, "not_found");
  ExpectProblem(api().Get("/api/trust/decisions/00000000-0000-7000-8000-000000000000/receipt", t.token("viewer")), 404,
                "not_found");
  auto theirs = api().Get("/api/trust/log", other.token("viewer"));
  ASSERT_EQ(theirs.status, 200);
  EXPECT_TRUE(Str(theirs.Json(), "origin").ends_with(other.id));
  EXPECT_TRUE(theirs.Json().at("checkpoint").is_null());
  ExpectProblem(api().Get("/api/trust/log/checkpoint", other.token("viewer")), 404, "checkpoint_not_found");
  EXPECT_TRUE(api().Get("/api/trust/log/checkpoints", other.token("viewer")).Json().at("items").as_array().empty());
  // Machine credentials need trust:read.
  auto reader = api().Post("/apikeys", {{"name", "reader"}, {"scopes", json::array{"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(reader.status, 201) << reader.body;
  auto evaluator =
      api().Post("/apikeys", {{"name", "eval"}, {"scopes", json::array{"trust:evaluate"}}}, t.token("admin"));
  ASSERT_EQ(evaluator.status, 201) << evaluator.body;
  EXPECT_EQ(api().Get("/api/trust/decisions/" + id + "/receipt", Str(reader.Json(), "clientSecret")).status, 200);
  EXPECT_EQ(api().Get("/api/trust/log", Str(reader.Json(), "clientSecret")).status, 200);
  ExpectProblem(api().Get("/api/trust/decisions/" + id + "/receipt", Str(evaluator.Json(), "clientSecret")), 403,
                "insufficient_scope");
  EXPECT_EQ(api().Get("/api/trust/decisions/" + id + "/receipt").status, 401);
  // Bad input names its field.
  const std::string path = "/api/trust/decisions/" + id + "/receipt";
  ExpectValidation(api().Get(path + "?treeSize=abc", t.token("viewer")), "treeSize");
  ExpectValidation(api().Get(path + "?treeSize=99", t.token("viewer")), "treeSize");
  ExpectValidation(api().Get(path + "?consistencyFrom=-1", t.token("viewer")), "consistencyFrom");
  ExpectValidation(api().Get(path + "?consistencyFrom=2", t.token("viewer")), "consistencyFrom");
  ExpectProblem(api().Get("/api/trust/decisions/not-a-uuid/receipt", t.token("viewer")), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/api/trust/log/checkpoints/x1", t.token("viewer")), 400, "invalid_path_parameter");
  ExpectProblem(api().Get("/api/trust/log/checkpoints/99", t.token("viewer")), 404, "checkpoint_not_found");
  ExpectValidation(api().Get("/api/trust/log/consistency", t.token("viewer")), "from");
  ExpectValidation(api().Get("/api/trust/log/consistency?from=2", t.token("viewer")), "from");
  ExpectValidation(api().Get("/api/trust/log/consistency?from=0&to=5", t.token("viewer")), "to");
  ExpectValidation(api().Get("/api/trust/log/consistency?from=0&to=1x", t.token("viewer")), "to");
  ExpectValidation(api().Get("/api/trust/log/checkpoints?limit=0", t.token("viewer")), "limit");
  ExpectProblem(api().Get("/api/trust/log/consistency?from=0", other.token("viewer")), 404, "checkpoint_not_found");
}

TEST_F(Receipts, ConsistencyBetweenCheckpointsProvesTheLogOnlyGrew) {
  TestTenant t = CreateTenant(api(), "rcpt-grow");
  for (int i = 0; i < 2; ++i) Evaluate(api(), t.token("viewer"), i);
  RunJobs(api());
  auto kept = api().Get("/api/trust/log/checkpoint", t.token("viewer"));
  ASSERT_EQ(kept.status, 200) << kept.body;
  EXPECT_EQ(kept.Json().at("treeSize").as_int64(), 2);
  std::string last;
  for (int i = 2; i < 5; ++i) last = Evaluate(api(), t.token("viewer"), i);
  RunJobs(api());
  auto list = api().Get("/api/trust/log/checkpoints?limit=1", t.token("viewer"));
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.Json().at("items").as_array().size(), 1u);
  EXPECT_EQ(list.Json().at("items").as_array()[0].at("treeSize").as_int64(), 5);
  EXPECT_EQ(list.Json().at("nextCursor").as_int64(), 5);
  auto older = api().Get("/api/trust/log/checkpoints?cursor=5", t.token("viewer"));
  ASSERT_EQ(older.Json().at("items").as_array().size(), 1u);
  EXPECT_EQ(older.Json().at("items").as_array()[0].at("treeSize").as_int64(), 2);
  auto at2 = api().Get("/api/trust/log/checkpoints/2", t.token("viewer"));
  ASSERT_EQ(at2.status, 200);
  EXPECT_EQ(at2.body, kept.body);

  auto consistency = api().Get("/api/trust/log/consistency?from=2", t.token("viewer"));
  ASSERT_EQ(consistency.status, 200) << consistency.body;
  EXPECT_EQ(consistency.Json().at("fromSize").as_int64(), 2);
  EXPECT_EQ(consistency.Json().at("toSize").as_int64(), 5);
  EXPECT_EQ(consistency.Json().at("proof").as_array().size(), 2u);  // [2, 4) and [4, 5)
  // from == to and from == 0: empty proofs.
  EXPECT_TRUE(
      api().Get("/api/trust/log/consistency?from=5&to=5", t.token("viewer")).Json().at("proof").as_array().empty());
  EXPECT_TRUE(api().Get("/api/trust/log/consistency?from=0", t.token("viewer")).Json().at("proof").as_array().empty());

  // The newest decision's receipt with the proof from the kept checkpoint.
  auto receipt = api().Get("/api/trust/decisions/" + last + "/receipt?consistencyFrom=2", t.token("viewer"));
  ASSERT_EQ(receipt.status, 200) << receipt.body;
  EXPECT_EQ(receipt.Json().at("consistency").at("fromSize").as_int64(), 2);
  TempDir dir("credence-receipts");
  const std::string key = Str(api().Get("/api/trust/log", t.token("viewer")).Json(), "verifierKey");
  const std::string file = Write(dir, "receipt.json", receipt.body);
  const std::string kept_file = Write(dir, "kept.json", kept.body);
  const auto all = RunCredence({"verify-receipt", file, "--key", key, "--checkpoint", kept_file});
  EXPECT_EQ(all.exit_code, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("consistent with the older checkpoint of tree size 2"), std::string::npos) << all.out;
  // Without the proof in the receipt, the verifier says how to get it.
  auto plain = api().Get("/api/trust/decisions/" + last + "/receipt", t.token("viewer"));
  auto missing = Verify({Write(dir, "plain.json", plain.body), "--key", key, "--checkpoint", kept_file});
  EXPECT_EQ(missing.first, 1);
  EXPECT_NE(missing.second.find("?consistencyFrom=2"), std::string::npos) << missing.second;
  // A receipt against the kept checkpoint itself, for a decision it covers.
  auto first_ids = api().Get("/trust-admin/ledger/decisions?limit=200", t.token("admin"));
  const std::string first = Str(first_ids.Json().at("decisions").as_array().back(), "decisionId");
  auto against = api().Get("/api/trust/decisions/" + first + "/receipt?treeSize=2", t.token("viewer"));
  ASSERT_EQ(against.status, 200) << against.body;
  EXPECT_EQ(Verify({Write(dir, "against.json", against.body), "--key", key, "--checkpoint", kept_file}).first, 0);
}

// A history rewritten behind a checkpoint an auditor kept: the last two
// records replaced (the tail cut, new records appended in their place, the
// tree built again from the rewritten ledger and signed by the server's own
// key). Each new receipt verifies on its own; against the kept checkpoint
// the consistency proof fails.
TEST_F(Receipts, ARewrittenHistoryBehindAPublishedCheckpointFailsConsistency) {
  if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  ServerProcess server(SharedServerOptions());
  HttpClient client(server.base_url());
  TestTenant t = CreateTenant(client, "rcpt-rewrite");
  for (int i = 0; i < 4; ++i) Evaluate(client, t.token("viewer"), i);
  RunJobs(client);
  auto kept = client.Get("/api/trust/log/checkpoint", t.token("viewer"));
  ASSERT_EQ(kept.status, 200) << kept.body;
  ASSERT_EQ(kept.Json().at("treeSize").as_int64(), 4);
  const std::string key = Str(client.Get("/api/trust/log", t.token("viewer")).Json(), "verifierKey");

  server.Terminate();
  RunSqlBehindTheServer(server.database_url(),
                        "DELETE FROM trust_decisions WHERE tenant_id = '" + t.id + "' AND seq >= 3");
  for (const char* table : {"merkle_tiles", "merkle_logs", "merkle_checkpoints"})
    RunSqlBehindTheServer(server.database_url(),
                          std::string("DELETE FROM ") + table + " WHERE tenant_id = '" + t.id + "'");
  server.Restart();
  HttpClient again(server.base_url());
  std::string last;
  for (int i = 10; i < 13; ++i) last = Evaluate(again, t.token("viewer"), i);
  RunJobs(again);
  auto now = again.Get("/api/trust/log/checkpoint", t.token("viewer"));
  ASSERT_EQ(now.status, 200) << now.body;
  EXPECT_EQ(now.Json().at("treeSize").as_int64(), 5);

  TempDir dir("credence-receipts");
  auto receipt = again.Get("/api/trust/decisions/" + last + "/receipt?consistencyFrom=4", t.token("viewer"));
  ASSERT_EQ(receipt.status, 200) << receipt.body;
  const std::string file = Write(dir, "receipt.json", receipt.body);
  EXPECT_EQ(Verify({file, "--key", key}).first, 0);  // signed, and self-consistent
  auto v = Verify({file, "--key", key, "--checkpoint", Write(dir, "kept.json", kept.body)});
  EXPECT_EQ(v.first, 1) << v.second;
  EXPECT_NE(v.second.find("not consistent with the older checkpoint"), std::string::npos) << v.second;
}

// Records archived out of the database keep their leaves: the tree took
// them in before they left (the archiver catches it up), the archived
// decision's receipt is 410, and the receipts of the records that remain,
// and consistency from a checkpoint made before the archiving, still verify.
TEST_F(Receipts, ArchivedRecordsKeepTheirLeaves) {
  if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  TempDir archives("credence-receipts-archives");
  ServerOptions options;
  options.extra_args = {"--test-clock", "--archive-dir", archives.path};
  ServerProcess server(std::move(options));
  HttpClient client(server.base_url());
  SetServerTime(client, "2025-01-15T10:00:00Z");
  TestTenant t = CreateTenant(client, "rcpt-archive");
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(Evaluate(client, t.token("viewer"), i));
  SetServerTime(client, "2026-06-15T10:00:00Z");
  for (int i = 3; i < 5; ++i) ids.push_back(Evaluate(client, t.token("viewer"), i));
  // No checkpoint pass before archiving: the archiver builds the tree first.
  auto archived = client.Post("/dev/retention/run", json::object{});
  ASSERT_EQ(archived.status, 200) << archived.body;
  EXPECT_EQ(archived.Json().at("decisions").as_int64(), 3) << archived.body;
  auto log = client.Get("/api/trust/log", t.token("viewer"));
  ASSERT_EQ(log.status, 200);
  EXPECT_EQ(log.Json().at("treeSize").as_int64(), 5);
  ASSERT_FALSE(log.Json().at("checkpoint").is_null());
  const std::string key = Str(log.Json(), "verifierKey");
  auto kept = client.Get("/api/trust/log/checkpoint", t.token("viewer"));

  ExpectProblem(client.Get("/api/trust/decisions/" + ids[0] + "/receipt", t.token("viewer")), 410, "decision_archived");
  TempDir dir("credence-receipts");
  auto remaining = client.Get("/api/trust/decisions/" + ids[3] + "/receipt", t.token("viewer"));
  ASSERT_EQ(remaining.status, 200) << remaining.body;
  EXPECT_EQ(remaining.Json().at("leafIndex").as_int64(), 3);
  EXPECT_EQ(Verify({Write(dir, "r4.json", remaining.body), "--key", key}).first, 0);
  // The log goes on: a new decision, a new checkpoint, consistent with the one before.
  ids.push_back(Evaluate(client, t.token("viewer"), 5));
  RunJobs(client);
  auto newest = client.Get("/api/trust/decisions/" + ids[5] + "/receipt?consistencyFrom=5", t.token("viewer"));
  ASSERT_EQ(newest.status, 200) << newest.body;
  auto v =
      Verify({Write(dir, "r6.json", newest.body), "--key", key, "--checkpoint", Write(dir, "kept.json", kept.body)});
  EXPECT_EQ(v.first, 0) << v.second;
  // Consistency from any size, archived leaves included, to a checkpoint's size.
  auto proof = client.Get("/api/trust/log/consistency?from=2&to=6", t.token("viewer"));
  ASSERT_EQ(proof.status, 200) << proof.body;
  EXPECT_FALSE(proof.Json().at("proof").as_array().empty());
  ExpectValidation(client.Get("/api/trust/log/consistency?from=2&to=4", t.token("viewer")), "to");
}

}  // namespace
}  // namespace credence::test
