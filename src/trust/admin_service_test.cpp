// Trust administration against a real store (SQLite, and PostgreSQL when
// CREDENCE_TEST_PG_URL is set), read back through the resolver that
// evaluation uses: what the admin service writes must be what evaluation
// reads. Also the content scanner's entry point, which has no HTTP route:
// it records facts only where no human has set them.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/logging.h"
#include "identity/principal.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/query.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"
#include "integrity/chain_heads.h"
#include "platform/audit_log.h"
#include "trust/admin_service.h"
#include "trust/ledger.h"
#include "trust/sensitivity.h"
#include "trust/source_resolver.h"
#include "trust/trust_service.h"

namespace credence::trust {
namespace {

class TrustAdminTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-trust-admin-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    hubs_ = std::make_unique<kb::HubService>(*db_, clock_);
    entries_ = std::make_unique<kb::EntryService>(*db_, clock_);
    audit_ = std::make_unique<platform::AuditLog>(*db_, clock_);
    admin_service_ = std::make_unique<TrustAdminService>(*db_, clock_, *audit_);
    admin_ = MakeTenant("one");
  }

  void TearDown() override {
    admin_service_.reset();
    audit_.reset();
    entries_.reset();
    hubs_.reset();
    db_.reset();
    store_.reset();
  }

  identity::Principal MakeTenant(const std::string& slug) { return test::SeedTenant(*db_, slug); }

  // A hub and an entry in it; returns {hub id, entry id}.
  std::pair<std::string, std::string> MakeEntry(const identity::Principal& owner, const std::string& hub_key) {
    auto hub = hubs_->Create(owner, {hub_key, "Hub " + hub_key, 365});
    EXPECT_TRUE(hub.ok()) << (hub.ok() ? "" : hub.error().detail);
    kb::NewEntry e;
    e.hub_key = hub_key;
    e.key = "refunds";
    e.original_language = "en";
    e.title = "Refunds";
    e.content = R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Five days."}]}]})";
    auto entry = entries_->Create(owner, e);
    EXPECT_TRUE(entry.ok()) << (entry.ok() ? "" : entry.error().detail);
    return {hub.ok() ? hub->id : "", entry.ok() ? entry->entry.id : ""};
  }

  std::string MakeDocument(const identity::Principal& owner, const std::string& external_id,
                           std::optional<std::string> url = std::nullopt) {
    ConnectedDocumentInput in;
    in.connector_key = "wiki";
    in.external_id = external_id;
    in.url = std::move(url);
    in.title = "Page " + external_id;
    in.content_updated_at = clock_.Now() - kMsPerDay;
    auto d = admin_service_->RegisterDocument(owner, in);
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().detail);
    return d.ok() ? d->document.id : "";
  }

  ResolvedSource Resolve(const identity::Principal& who, const std::string& source_id) {
    storage::Session session(*db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, who.tenant_id);
    return ResolveSources(tenant, {source_id}, "", clock_.Now()).sources.front();
  }

  ContextConfig ResolvedConfig(const identity::Principal& who) {
    storage::Session session(*db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, who.tenant_id);
    return ResolveSources(tenant, {"x:y"}, "", clock_.Now()).config;
  }

  Status Scan(const identity::Principal& who, SourceKind kind, const std::string& id, SensitivityFacts facts) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, who.tenant_id);
    Status s = RecordScannerFacts(tenant, kind, id, facts, clock_.Now());
    session.Commit();
    return s;
  }

  ManualClock clock_{*ParseTimestamp("2030-01-01T00:00:00Z")};
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<kb::HubService> hubs_;
  std::unique_ptr<kb::EntryService> entries_;
  std::unique_ptr<platform::AuditLog> audit_;
  std::unique_ptr<TrustAdminService> admin_service_;
  identity::Principal admin_;

 private:
  std::unique_ptr<test::ScratchStore> store_;
};

bool SamePolicy(const Policy& a, const Policy& b) { return PolicyToJson(a) == PolicyToJson(b); }

TEST_P(TrustAdminTest, TheScannerRecordsFactsOnlyWhereNoHumanSetThem) {
  const auto [hub, entry] = MakeEntry(admin_, "kb");
  const std::string source = "entry:" + entry;

  ASSERT_TRUE(Scan(admin_, SourceKind::kEntry, entry, {Sensitivity::kConfidential, false, true}).ok());
  auto seen = admin_service_->GetSensitivity(admin_, source);
  ASSERT_TRUE(seen.ok());
  EXPECT_EQ(seen->set_by, std::optional<std::string>(kSetByScanner));
  EXPECT_FALSE(seen->set_by_user.has_value());
  EXPECT_EQ(seen->facts.classification, Sensitivity::kConfidential);
  EXPECT_EQ(Resolve(admin_, source).state.sensitivity, Sensitivity::kConfidential);
  EXPECT_TRUE(Resolve(admin_, source).state.has_personal_data);

  // The scanner may revise its own findings.
  clock_.Advance(1000);
  ASSERT_TRUE(Scan(admin_, SourceKind::kEntry, entry, {Sensitivity::kRestricted, true, false}).ok());
  EXPECT_EQ(Resolve(admin_, source).state.sensitivity, Sensitivity::kRestricted);
  EXPECT_TRUE(Resolve(admin_, source).state.has_secrets);

  // A human's fact wins, and the scanner does not override it afterwards.
  ASSERT_TRUE(admin_service_->SetSensitivity(admin_, source, {Sensitivity::kPublic, false, false}).ok());
  clock_.Advance(1000);
  ASSERT_TRUE(Scan(admin_, SourceKind::kEntry, entry, {Sensitivity::kRestricted, true, true}).ok());
  auto human = admin_service_->GetSensitivity(admin_, source);
  ASSERT_TRUE(human.ok());
  EXPECT_EQ(human->set_by, std::optional<std::string>(kSetByHuman));
  EXPECT_EQ(human->set_by_user, std::optional<std::string>(admin_.user_id));
  EXPECT_EQ(human->facts.classification, Sensitivity::kPublic);
  EXPECT_FALSE(human->facts.has_secrets);
  EXPECT_EQ(human->updated_at, std::optional<TimeMs>(clock_.Now() - 1000));
  const ResolvedSource resolved = Resolve(admin_, source);
  EXPECT_EQ(resolved.state.sensitivity, Sensitivity::kPublic);
  EXPECT_FALSE(resolved.state.has_secrets);
  EXPECT_FALSE(resolved.state.has_personal_data);

  // Once the human's fact is removed, the scanner speaks again.
  ASSERT_TRUE(admin_service_->DeleteSensitivity(admin_, source).ok());
  auto cleared = admin_service_->GetSensitivity(admin_, source);
  ASSERT_TRUE(cleared.ok());
  EXPECT_FALSE(cleared->set_by.has_value());
  EXPECT_EQ(cleared->facts.classification, Sensitivity::kInternal);
  ASSERT_TRUE(Scan(admin_, SourceKind::kEntry, entry, {Sensitivity::kConfidential, false, false}).ok());
  EXPECT_EQ(admin_service_->GetSensitivity(admin_, source)->set_by, std::optional<std::string>(kSetByScanner));
}

TEST_P(TrustAdminTest, TheScannerReachesConnectedDocumentsAndOnlyTheTenantsSources) {
  const std::string doc = MakeDocument(admin_, "SPACE:7");
  ASSERT_TRUE(Scan(admin_, SourceKind::kConnected, doc, {Sensitivity::kInternal, true, false}).ok());
  const ResolvedSource r = Resolve(admin_, "wiki:SPACE:7");
  ASSERT_TRUE(r.state.resolved);
  EXPECT_TRUE(r.state.has_secrets);
  EXPECT_EQ(admin_service_->GetSensitivity(admin_, "wiki:SPACE:7")->set_by, std::optional<std::string>(kSetByScanner));

  const auto other = MakeTenant("two");
  const auto [hub, entry] = MakeEntry(other, "kb");
  EXPECT_EQ(Scan(admin_, SourceKind::kEntry, entry, {}).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(Scan(other, SourceKind::kConnected, doc, {}).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(Scan(admin_, SourceKind::kEntry, NewId(), {}).error().kind, ErrorKind::kNotFound);
  // A document id is not an entry id.
  EXPECT_EQ(Scan(admin_, SourceKind::kEntry, doc, {}).error().kind, ErrorKind::kNotFound);

  // Deleting the document removes its facts with it.
  ASSERT_TRUE(admin_service_->DeleteDocument(admin_, doc).ok());
  const std::string again = MakeDocument(admin_, "SPACE:7");
  EXPECT_FALSE(admin_service_->GetSensitivity(admin_, "wiki:SPACE:7")->set_by.has_value());
  EXPECT_FALSE(Resolve(admin_, "wiki:SPACE:7").state.has_secrets);
}

TEST_P(TrustAdminTest, PolicySettingsAreWhatEvaluationApplies) {
  const auto [hub, entry] = MakeEntry(admin_, "kb");
  const std::string source = "entry:" + entry;
  const std::string doc = MakeDocument(admin_, "1");

  PolicyOverride tenant_level;
  tenant_level.citation_required = true;
  tenant_level.disclaimer_text = "Ask support.";
  ASSERT_TRUE(admin_service_->SetTenantPolicy(admin_, tenant_level).ok());
  PolicyOverride hub_level;
  hub_level.internal_only = true;
  hub_level.disclaimer_text = "";  // clears the tenant's text for this hub
  auto at_hub = admin_service_->SetHubPolicy(admin_, "kb", hub_level);
  ASSERT_TRUE(at_hub.ok());
  EXPECT_TRUE(at_hub->effective.citation_required);
  EXPECT_TRUE(at_hub->effective.internal_only);
  EXPECT_FALSE(at_hub->effective.disclaimer_text.has_value());

  ResolvedSource r = Resolve(admin_, source);
  EXPECT_EQ(r.policy_source, kPolicyHub);
  EXPECT_TRUE(SamePolicy(r.policy, at_hub->effective)) << PolicyToJson(r.policy);

  PolicyOverride entry_level;
  entry_level.internal_only = false;
  entry_level.max_sensitivity_for_ai = Sensitivity::kRestricted;
  auto at_entry = admin_service_->SetSourcePolicy(admin_, source, entry_level);
  ASSERT_TRUE(at_entry.ok());
  EXPECT_EQ(at_entry->source_id, source);
  r = Resolve(admin_, source);
  EXPECT_EQ(r.policy_source, kPolicyEntry);
  EXPECT_TRUE(SamePolicy(r.policy, at_entry->effective)) << PolicyToJson(r.policy);
  auto read = admin_service_->GetSourcePolicy(admin_, source);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(SamePolicy(read->effective, at_entry->effective));
  EXPECT_EQ(PolicyOverrideToJson(read->policy), PolicyOverrideToJson(entry_level));
  EXPECT_EQ(read->updated_by, std::optional<std::string>(admin_.user_id));

  // A connected document has no hub level: tenant, then its own.
  PolicyOverride doc_level;
  doc_level.ai_retrievable = false;
  auto at_doc = admin_service_->SetSourcePolicy(admin_, "wiki:1", doc_level);
  ASSERT_TRUE(at_doc.ok());
  EXPECT_FALSE(at_doc->effective.internal_only);
  EXPECT_TRUE(at_doc->effective.citation_required);
  r = Resolve(admin_, "wiki:1");
  EXPECT_EQ(r.policy_source, kPolicyEntry);
  EXPECT_TRUE(SamePolicy(r.policy, at_doc->effective));

  // An empty override leaves no row, so the level no longer decides.
  ASSERT_TRUE(admin_service_->SetSourcePolicy(admin_, source, {}).ok());
  EXPECT_EQ(Resolve(admin_, source).policy_source, kPolicyHub);
  ASSERT_TRUE(admin_service_->DeleteHubPolicy(admin_, "kb").ok());
  r = Resolve(admin_, source);
  EXPECT_EQ(r.policy_source, kPolicyTenantDefault);
  EXPECT_TRUE(SamePolicy(r.policy, admin_service_->GetTenantPolicy(admin_)->effective));
  EXPECT_FALSE(admin_service_->GetHubPolicy(admin_, "kb")->updated_by.has_value());

  // Deleting the document removes its override with it.
  ASSERT_TRUE(admin_service_->DeleteDocument(admin_, doc).ok());
  MakeDocument(admin_, "1");
  EXPECT_EQ(Resolve(admin_, "wiki:1").policy_source, kPolicyTenantDefault);
}

TEST_P(TrustAdminTest, ContextConfigurationIsWhatEvaluationClassifiesWith) {
  EXPECT_EQ(ContextConfigToJson(*admin_service_->GetContext(admin_)), ContextConfigToJson(ContextConfig{}));
  auto config = ContextConfigFromRequest(
      R"({"internalChannels":["internal","slack_ops"],"actionRequiresReview":{"answer_customer":"Attestation"},)"
      R"("customerFacingChannels":null})");
  ASSERT_TRUE(config.ok());
  ASSERT_TRUE(admin_service_->SetContext(admin_, *config).ok());
  const ContextConfig resolved = ResolvedConfig(admin_);
  EXPECT_EQ(ContextConfigToJson(resolved), ContextConfigToJson(*config));
  EXPECT_EQ(resolved.customer_facing_channels, ContextConfig{}.customer_facing_channels);
  EXPECT_TRUE(resolved.internal_channels.count("slack_ops"));
  EXPECT_FALSE(resolved.action_requires_review.count("ship_release"));
  const auto other = MakeTenant("two");
  EXPECT_EQ(ContextConfigToJson(ResolvedConfig(other)), ContextConfigToJson(ContextConfig{}));
}

TEST_P(TrustAdminTest, UrlsResolveToTheDocumentFirstThenTheEntrysLinks) {
  const auto [hub, entry] = MakeEntry(admin_, "kb");
  auto links = admin_service_->SetSourceLinks(
      admin_, entry, {"https://help.example.com/b", "https://help.example.com/a", "https://help.example.com/b"});
  ASSERT_TRUE(links.ok());
  EXPECT_EQ(links->urls, (std::vector<std::string>{"https://help.example.com/a", "https://help.example.com/b"}));
  ResolvedSource r = Resolve(admin_, "https://help.example.com/a");
  ASSERT_TRUE(r.state.resolved);
  EXPECT_EQ(r.state.entry_id, entry);
  EXPECT_EQ(r.hub_id, hub);

  const std::string doc = MakeDocument(admin_, "9", "https://help.example.com/a");
  r = Resolve(admin_, "https://help.example.com/a");
  EXPECT_EQ(r.state.origin, Origin::kConnected);
  EXPECT_EQ(r.state.entry_id, doc);

  ASSERT_TRUE(admin_service_->SetSourceLinks(admin_, entry, {"https://help.example.com/c"}).ok());
  EXPECT_FALSE(Resolve(admin_, "https://help.example.com/b").state.resolved);
  EXPECT_EQ(Resolve(admin_, "https://help.example.com/c").state.entry_id, entry);
  EXPECT_EQ(admin_service_->GetSourceLinks(admin_, entry)->urls,
            std::vector<std::string>{"https://help.example.com/c"});
}

TEST_P(TrustAdminTest, RegisteringAgainUpdatesInPlaceAndCountsContentChanges) {
  ConnectedDocumentInput in;
  in.connector_key = "jira";
  in.external_id = "ABC-1";
  in.title = "Runbook";
  in.content_hash = "h1";
  in.content_updated_at = clock_.Now() - kMsPerDay;
  auto first = admin_service_->RegisterDocument(admin_, in);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->document.version, 1);
  EXPECT_EQ(first->document.last_synced_at, clock_.Now());

  clock_.Advance(1000);
  in.title = "Runbook (renamed)";
  auto same = admin_service_->RegisterDocument(admin_, in);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->created);
  EXPECT_EQ(same->document.id, first->document.id);
  EXPECT_EQ(same->document.version, 1);
  EXPECT_EQ(same->document.title, "Runbook (renamed)");
  EXPECT_EQ(same->document.created_at, first->document.created_at);
  EXPECT_EQ(same->document.updated_at, clock_.Now());

  in.content_hash = "h2";
  EXPECT_EQ(admin_service_->RegisterDocument(admin_, in)->document.version, 2);
  in.content_hash.reset();
  EXPECT_EQ(admin_service_->RegisterDocument(admin_, in)->document.version, 3);
  in.content_updated_at += 1;
  EXPECT_EQ(admin_service_->RegisterDocument(admin_, in)->document.version, 4);
  EXPECT_EQ(admin_service_->RegisterDocument(admin_, in)->document.version, 4);
  EXPECT_EQ(Resolve(admin_, "jira:ABC-1").state.version, 4);
}

// Deleting an entry, or its hub, takes its trust rows with it (migration
// 503's triggers): nothing is left to apply to a later source with the id.
TEST_P(TrustAdminTest, DeletingAnEntryOrHubForgetsItsTrustRows) {
  const auto [hub_id, entry_id] = MakeEntry(admin_, "gone");
  PolicyOverride internal_only;
  internal_only.internal_only = true;
  ASSERT_TRUE(admin_service_->SetSourcePolicy(admin_, "entry:" + entry_id, internal_only).ok());
  ASSERT_TRUE(admin_service_->SetHubPolicy(admin_, "gone", internal_only).ok());
  ASSERT_TRUE(
      admin_service_->SetSensitivity(admin_, "entry:" + entry_id, {Sensitivity::kRestricted, true, false}).ok());
  ASSERT_TRUE(admin_service_->SetSourceLinks(admin_, entry_id, {"https://example.com/gone"}).ok());
  constexpr storage::TenantQuery kTrustRows{
      "trust_admin_test.trust_rows",
      "SELECT (SELECT COUNT(*) FROM trust_policies WHERE tenant_id = $1 AND scope <> 'tenant'),"
      " (SELECT COUNT(*) FROM source_sensitivity WHERE tenant_id = $1),"
      " (SELECT COUNT(*) FROM entry_source_links WHERE tenant_id = $1)"};
  auto counts = [&] {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, admin_.tenant_id);
    const auto rows = tenant.Run(kTrustRows);
    const auto row = rows.front();
    return std::vector<int64_t>{row.Int(0), row.Int(1), row.Int(2)};
  };
  EXPECT_EQ(counts(), (std::vector<int64_t>{2, 1, 1}));
  ASSERT_TRUE(entries_->Delete(admin_, entry_id).ok());
  EXPECT_EQ(counts(), (std::vector<int64_t>{1, 0, 0}));
  ASSERT_TRUE(hubs_->Delete(admin_, "gone").ok());
  EXPECT_EQ(counts(), (std::vector<int64_t>{0, 0, 0}));
}

// Two nodes over one store append to the same tenant's chain, each with its
// own ledger writer (which remembers the chain's end it last wrote). Every
// evaluation is recorded once, and the chain stays whole: a node whose
// remembered end went stale finds out from the taken sequence and retries.
TEST_P(TrustAdminTest, TwoNodesAppendingToOneChainKeepItWhole) {
  auto [hub, entry] = MakeEntry(admin_, "two-nodes");
  TrustService node_a(*db_, clock_);
  TrustService node_b(*db_, clock_);
  identity::Principal caller = admin_;
  ContextInput context;
  context.channel = "internal";
  std::set<std::string> decisions;
  for (int i = 0; i < 12; ++i) {
    TrustService& node = (i % 3 == 0) ? node_b : node_a;  // a, a, b, a, a, b...
    auto e = node.Evaluate(caller, {"entry:" + entry}, context, Endpoint::kEvaluate);
    ASSERT_TRUE(e.ok()) << e.error().detail;
    decisions.insert(e->decision_id);
  }
  EXPECT_EQ(decisions.size(), 12u);
  storage::Session session(*db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  const VerifyResult v = VerifyChain(tenant, 1, 0);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.checked, 12);
}

// Reports resolve whole inventories: past the evaluate endpoint's 100 ids,
// in batches, every id answered in order.
TEST_P(TrustAdminTest, ResolvingInBatchesAnswersEveryIdInOrder) {
  auto [hub, entry] = MakeEntry(admin_, "batches");
  std::vector<std::string> ids;
  for (int i = 0; i < 250; ++i) ids.push_back(i == 137 ? "entry:" + entry : "wiki:page-" + std::to_string(i));
  storage::Session session(*db_);
  storage::TenantSession tenant(session, admin_.tenant_id);
  const auto sources = ResolveInBatches(tenant, ids, clock_.Now());
  ASSERT_EQ(sources.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(sources[i].state.source_id, ids[i]);
    EXPECT_EQ(sources[i].state.resolved, i == 137);
  }
}

// A ledger written before migration 506 (hash format 1: the evidence
// hashes inline) still verifies after records of format 2 (their list's
// digest) were appended to it, and a record's format is part of what
// verification checks. The formulas are spelled out here as docs/trust.md
// states them, so a change to either cannot go unnoticed.
TEST_P(TrustAdminTest, RecordsOfBothHashFormatsVerifyInOneChain) {
  auto [hub, entry] = MakeEntry(admin_, "formats");
  TrustService node(*db_, clock_);
  ContextInput context;
  context.channel = "internal";
  for (int i = 0; i < 3; ++i) {
    auto e = node.Evaluate(admin_, {"entry:" + entry, "wiki:missing"}, context, Endpoint::kEvaluate);
    ASSERT_TRUE(e.ok()) << e.error().detail;
  }
  static constexpr storage::TenantQuery kRecords{
      "test.records", "SELECT seq, header, evidence FROM trust_decisions WHERE tenant_id = $1 ORDER BY seq"};
  static constexpr storage::TenantQuery kEvidenceHash{
      "test.evidence_hash", "SELECT hash FROM trust_evidence WHERE tenant_id = $1 AND id = $2"};
  static constexpr storage::TenantQuery kRewrite{
      "test.rewrite",
      "UPDATE trust_decisions SET prev_hash = $3, hash = $4, hash_format = $5 WHERE tenant_id = $1 AND seq = $2"};
  storage::Session session(*db_);
  storage::TenantSession tenant(session, admin_.tenant_id);
  // Records 1 and 2 as a binary before migration 506 wrote them; record 3
  // (format 2) linked to them again.
  std::string prev = kGenesisHash;
  for (const auto& r : tenant.Run(kRecords)) {
    const int64_t seq = r.Int(0);
    const std::string header = r.Text(1);
    std::vector<std::string> hashes;
    std::string refs = r.Text(2);
    for (size_t at = 0; at < refs.size();) {
      const size_t comma = std::min(refs.find(',', at), refs.size());
      hashes.push_back(tenant.Run(kEvidenceHash, {static_cast<int64_t>(std::stoll(refs.substr(at, comma - at)))}).front().Text(0));
      at = comma + 1;
    }
    ASSERT_EQ(hashes.size(), 2u);
    std::string hash;
    const int64_t format = seq < 3 ? 1 : 2;
    if (format == 1) {
      hash = Sha256Hex(prev + "\n" + header + "\n" + hashes[0] + "\n" + hashes[1]);
    } else {
      hash = Sha256Hex(prev + "\n" + header + "\n" + Sha256Hex(hashes[0] + "\n" + hashes[1]));
    }
    tenant.Run(kRewrite, {seq, prev, hash, format});
    prev = hash;
  }
  VerifyResult v = VerifyChain(tenant, 1, 0);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.checked, 3);

  // The same record claiming the other format no longer verifies.
  static constexpr storage::TenantQuery kFlip{
      "test.flip", "UPDATE trust_decisions SET hash_format = 2 WHERE tenant_id = $1 AND seq = 2"};
  tenant.Run(kFlip);
  v = VerifyChain(tenant, 1, 0);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_invalid_seq, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, TrustAdminTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

// The ledger as an auditor attacks it: each stored column of a record
// altered by hand (inside a transaction rolled back afterwards), and the
// verifier names that record. Records by a machine key, so key_id is set.
class LedgerTamperTest : public TrustAdminTest {
 protected:
  void SetUp() override {
    TrustAdminTest::SetUp();
    if (IsSkipped()) return;
    machine_ = admin_;
    machine_.kind = identity::PrincipalKind::kMachine;
    machine_.key_id = "0123456789abcdef";
    machine_.scopes = {"trust:evaluate"};
    chain_key_ = std::make_shared<const integrity::SigningKey>(integrity::SigningKey::Generate());
    heads_ = std::make_unique<integrity::ChainHeads>(*db_, clock_, chain_key_,
                                                     std::vector<integrity::ChainSource>{LedgerChain()});
    heads_->RegisterKey();
    auto [hub, entry] = MakeEntry(admin_, "tamper");
    TrustService node(*db_, clock_, heads_.get());
    ContextInput context;
    context.channel = "internal";
    context.actor_label = "bot-1";
    context.actor_type = "agent";
    context.action = "answer";
    for (int i = 0; i < 3; ++i) {
      auto e = node.Evaluate(machine_, {"entry:" + entry, "wiki:missing-" + std::to_string(i)}, context,
                             Endpoint::kEvaluate);
      ASSERT_TRUE(e.ok()) << e.error().detail;
      ids_.push_back(e->decision_id);
    }
  }
  void TearDown() override {
    heads_.reset();
    TrustAdminTest::TearDown();
  }

  // Runs `sql` ($1: the tenant) in a write transaction, then `check`, then
  // rolls back.
  template <typename Check>
  void Altered(const std::vector<std::string>& statements, Check check) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    const storage::Param params[] = {admin_.tenant_id};
    for (const auto& sql : statements) session.connection().Execute("test.alter " + sql, sql, params);
    storage::TenantSession tenant(session, admin_.tenant_id);
    check(tenant);
  }

  identity::Principal machine_;
  std::shared_ptr<const integrity::SigningKey> chain_key_;
  std::unique_ptr<integrity::ChainHeads> heads_;
  std::vector<std::string> ids_;
};

TEST_P(LedgerTamperTest, EveryStoredColumnOfARecordIsCovered) {
  {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, admin_.tenant_id);
    const VerifyResult v = VerifyChain(tenant, 1, 0);
    ASSERT_TRUE(v.ok) << v.problem;
    ASSERT_EQ(v.checked, 3);
  }
  // Column -> the alteration of record 2 (one byte where the value is text).
  const std::vector<std::pair<std::string, std::string>> alterations = {
      {"evaluated_at", "evaluated_at = evaluated_at - 86400000"},
      {"evaluated_at", "evaluated_at = evaluated_at + 1"},
      {"endpoint", "endpoint = 'FilterSources'"},
      {"actor_kind", "actor_kind = 'user'"},
      {"actor_label", "actor_label = 'bot-2'"},
      {"actor_label", "actor_label = NULL"},
      {"actor_type", "actor_type = 'agenT'"},
      {"action", "action = 'answeR'"},
      {"channel", "channel = 'internaL'"},
      {"channel", "channel = 'internal '"},
      {"user_id", "user_id = 'someone'"},
      {"key_id", "key_id = '0123456789abcdeF'"},
      {"key_id", "key_id = NULL"},
      {"app_id", "app_id = 'an-app'"},
      {"overall", "overall = CASE WHEN overall = 'allow' THEN 'block' ELSE 'allow' END"},
      {"counts", "total = total + 1"},
      {"counts", "allowed = allowed + 1"},
      {"counts", "warned = warned + 1"},
      {"counts", "blocked = blocked + 1"},
      {"counts", "escalated = escalated + 1"},
      {"id", "id = '" + NewId() + "'"},
      {"evidence", "evidence = ' ' || evidence"},
      {"hash", "header = replace(header, 'bot-1', 'bot-2')"},
      {"hash", "hash_format = 2"},
      {"hash format", "hash_format = 7"},
      {"hash", "hash = '" + std::string(64, 'a') + "'"},
      {"link", "prev_hash = '" + std::string(64, 'b') + "'"},
  };
  for (const auto& [column, set] : alterations) {
    Altered({"UPDATE trust_decisions SET " + set + " WHERE tenant_id = $1 AND seq = 2"},
            [&, column = column, set = set](storage::TenantSession& tenant) {
              const VerifyResult v = VerifyChain(tenant, 1, 0);
              EXPECT_FALSE(v.ok) << set;
              EXPECT_EQ(v.first_invalid_seq, 2) << set << ": " << v.problem;
              if (column != "hash" && column != "link" && column != "hash format") {
                EXPECT_NE(v.problem.find(column), std::string::npos) << set << ": " << v.problem;
              }
            });
  }
  // The evidence a record references.
  Altered({"UPDATE trust_evidence SET body = replace(body, 'missing', 'missinG') WHERE tenant_id = $1"},
          [](storage::TenantSession& tenant) {
            const VerifyResult v = VerifyChain(tenant, 1, 0);
            EXPECT_FALSE(v.ok);
            EXPECT_NE(v.problem.find("evidence"), std::string::npos) << v.problem;
          });
  // Deleting a record in the middle; two records swapping places.
  Altered({"DELETE FROM trust_decisions WHERE tenant_id = $1 AND seq = 2"}, [](storage::TenantSession& tenant) {
    const VerifyResult v = VerifyChain(tenant, 1, 0);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.problem.find("missing"), std::string::npos) << v.problem;
  });
  Altered({"UPDATE trust_decisions SET seq = 1000 WHERE tenant_id = $1 AND seq = 2",
           "UPDATE trust_decisions SET seq = 2 WHERE tenant_id = $1 AND seq = 3",
           "UPDATE trust_decisions SET seq = 3 WHERE tenant_id = $1 AND seq = 1000"},
          [](storage::TenantSession& tenant) {
            const VerifyResult v = VerifyChain(tenant, 1, 0);
            EXPECT_FALSE(v.ok);
            EXPECT_EQ(v.first_invalid_seq, 2) << v.problem;
          });
  // A format-3 record claiming an older format after a format-3 one, with
  // its hash recomputed by that format, is refused all the same.
  Altered({"UPDATE trust_decisions SET hash_format = 2 WHERE tenant_id = $1 AND seq = 3"},
          [](storage::TenantSession& tenant) {
            const VerifyResult v = VerifyChain(tenant, 1, 0);
            EXPECT_FALSE(v.ok);
            EXPECT_EQ(v.first_invalid_seq, 3);
            EXPECT_NE(v.problem.find("older"), std::string::npos) << v.problem;
          });
}

// What the record hashes cannot catch, the signed heads do: a record
// rewritten with every hash after it recomputed (format 3 spelled out as
// docs/trust.md states it), and a tail cut off.
TEST_P(LedgerTamperTest, SignedHeadsCatchARecomputedChainAndATruncatedTail) {
  const auto pass = heads_->SignMovedHeads();
  EXPECT_EQ(pass.signed_heads, 1);
  EXPECT_EQ(heads_->SignMovedHeads().signed_heads, 0);  // the head did not move
  static constexpr storage::TenantQuery kRecords{
      "test.tamper_records",
      "SELECT seq, header, evidence, prev_hash FROM trust_decisions WHERE tenant_id = $1 ORDER BY seq"};
  static constexpr storage::TenantQuery kEvidenceHash{
      "test.tamper_evidence_hash", "SELECT hash FROM trust_evidence WHERE tenant_id = $1 AND id = $2"};
  static constexpr storage::TenantQuery kRewrite{
      "test.tamper_rewrite",
      "UPDATE trust_decisions SET header = $3, prev_hash = $4, hash = $5, overall = $6 WHERE tenant_id = $1 AND seq = $2"};
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, admin_.tenant_id);
    std::string prev = kGenesisHash;
    for (const auto& r : tenant.Run(kRecords)) {
      const int64_t seq = r.Int(0);
      std::string header = r.Text(1);
      if (seq == 2) {  // the forgery: every source allowed
        for (const char* from : {"\"overallDecision\":\"block\"", "\"overallDecision\":\"warn\""})
          if (auto at = header.find(from); at != std::string::npos)
            header.replace(at, std::string(from).size(), "\"overallDecision\":\"allow\"");
      }
      std::string list;
      const std::string refs = r.Text(2);
      for (size_t at = 0; at < refs.size();) {
        const size_t comma = std::min(refs.find(',', at), refs.size());
        const int64_t id = std::stoll(refs.substr(at, comma - at));
        if (!list.empty()) list += "\n";
        list += tenant.Run(kEvidenceHash, {id}).front().Text(0);
        at = comma + 1;
      }
      const std::string hash = Sha256Hex("credence-ledger:v3\n" + admin_.tenant_id + "\n" + std::to_string(seq) +
                                         "\n" + prev + "\n" + header + "\n" + Sha256Hex(list));
      const std::string overall(boost::json::parse(header).at("overallDecision").as_string());
      tenant.Run(kRewrite, {seq, header, prev, hash, overall});
      prev = hash;
    }
    const VerifyResult v = VerifyChain(tenant, 1, 0);
    ASSERT_TRUE(v.ok) << "the forgery should pass the record checks: " << v.problem;
    const auto h = heads_->Check(tenant, kLedgerChain, 1, 0, std::nullopt);
    EXPECT_FALSE(h.ok);
    EXPECT_EQ(h.first_invalid_seq, 3);
    EXPECT_NE(h.problem.find("no longer carries"), std::string::npos) << h.problem;
    // The signer refuses to sign over it.
    session.Commit();
  }
  // Nor does the signer sign over it once the chain moves on.
  TrustService node(*db_, clock_, heads_.get());
  ASSERT_TRUE(node.Evaluate(machine_, {"wiki:after"}, {}, Endpoint::kEvaluate).ok());
  const auto refused = heads_->SignMovedHeads();
  EXPECT_EQ(refused.signed_heads, 0);
  EXPECT_EQ(refused.refused, 1);
}

// The tail cut off after a signed head: every remaining record verifies,
// the head does not. And an outside head, stored by an auditor, catches it
// even when the signed heads are deleted with the tail.
TEST_P(LedgerTamperTest, SignedHeadsCatchATruncatedTail) {
  ASSERT_EQ(heads_->SignMovedHeads().signed_heads, 1);
  storage::Session read(*db_);
  storage::TenantSession reader(read, admin_.tenant_id);
  const auto stored = heads_->ListHeads(reader, kLedgerChain, 0, 10);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].seq, 3);
  integrity::OutsideHead outside{stored[0].seq, stored[0].hash, stored[0].signed_at, stored[0].key_id,
                                 stored[0].signature};
  Altered({"DELETE FROM trust_decisions WHERE tenant_id = $1 AND seq = 3"}, [&](storage::TenantSession& tenant) {
    EXPECT_TRUE(VerifyChain(tenant, 1, 0).ok);
    const auto h = heads_->Check(tenant, kLedgerChain, 1, 0, std::nullopt);
    EXPECT_FALSE(h.ok);
    EXPECT_EQ(h.first_invalid_seq, 3);
    EXPECT_NE(h.problem.find("ends at record 2"), std::string::npos) << h.problem;
  });
  Altered({"DELETE FROM trust_decisions WHERE tenant_id = $1 AND seq = 3"}, [&](storage::TenantSession& tenant) {
    const storage::Param p[] = {admin_.tenant_id};
    tenant.session().connection().Execute("test.drop_heads", "DELETE FROM chain_heads WHERE tenant_id = $1", p);
    EXPECT_TRUE(heads_->Check(tenant, kLedgerChain, 1, 0, std::nullopt).ok);
    const auto h = heads_->Check(tenant, kLedgerChain, 1, 0, outside);
    EXPECT_FALSE(h.ok);
    EXPECT_TRUE(h.first_invalid_is_outside);
  });
  // Untouched, the outside head verifies; one with a forged signature does not.
  {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, admin_.tenant_id);
    EXPECT_TRUE(heads_->Check(tenant, kLedgerChain, 1, 0, outside).ok);
    auto forged = outside;
    forged.signature = integrity::SigningKey::Generate().Sign("anything");
    const auto h = heads_->Check(tenant, kLedgerChain, 1, 0, forged);
    EXPECT_FALSE(h.ok);
    EXPECT_NE(h.problem.find("does not verify"), std::string::npos) << h.problem;
  }
  // A head whose stored signature was altered.
  Altered({"UPDATE chain_heads SET hash = '" + std::string(64, 'c') + "' WHERE tenant_id = $1"},
          [&](storage::TenantSession& tenant) {
            const auto h = heads_->Check(tenant, kLedgerChain, 1, 0, std::nullopt);
            EXPECT_FALSE(h.ok);
            EXPECT_NE(h.problem.find("signature does not verify"), std::string::npos) << h.problem;
          });
}

INSTANTIATE_TEST_SUITE_P(Backends, LedgerTamperTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::trust
