// Invitations against a real store (SQLite, and PostgreSQL when
// CREDENCE_TEST_PG_URL is set): expiry derived from the clock, revocation,
// re-inviting, the invitation email queued in the inviting transaction, and
// JoinOnSignIn, which sign-in calls in its own transaction (no HTTP route
// reaches it yet; docs/sign-in.md, "Invitations").
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/logging.h"
#include "identity/audit.h"
#include "identity/invitation_service.h"
#include "identity/principal.h"
#include "identity/user_service.h"
#include "notify/outbox.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/query.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"

namespace credence::identity {
namespace {

constexpr TimeMs kStart = 1'893'456'000'000;  // 2030-01-01T00:00:00Z
constexpr TimeMs kDay = 86'400'000;

constexpr storage::GlobalQuery kInsertUser{
    "invitation_test.insert_user",
    "INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $3, 0)"};
constexpr storage::GlobalQuery kInsertTenant{
    "invitation_test.insert_tenant",
    "INSERT INTO tenants (id, name, slug, domain, allow_all_users, created_at) VALUES ($1, $2, $3, $4, $5, 0)"};
constexpr storage::GlobalQuery kMembership{
    "invitation_test.membership",
    "SELECT role, is_active, removed_at, removed_by FROM tenant_members WHERE tenant_id = $1 AND user_id = $2"};
constexpr storage::GlobalQuery kInsertMember{
    "invitation_test.insert_member",
    "INSERT INTO tenant_members (tenant_id, user_id, role, is_active, joined_at) VALUES ($1, $2, $3, 1, 0)"};
constexpr storage::GlobalQuery kOutboxOf{
    "invitation_test.outbox_of",
    "SELECT channel_id, event, subject, text, recipients, status FROM outbox WHERE tenant_id = $1"
    " ORDER BY created_at, id"};

// Entries these tests cause are the audit log's own tests' business.
class NoAudit final : public AuditRecorder {
 public:
  void Record(storage::TenantSession&, const AuditEvent&) const override {}
  void RecordAlone(const std::string&, const AuditEvent&) const override {}
};
const NoAudit kNoAudit;

class InvitationServiceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-invitation-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    settings_.public_url = "https://credence.example.com/";
    settings_.providers = {"corp sso"};
    service_ = MakeService(settings_);
    admin_ = MakeTenant("one");
  }

  void TearDown() override {
    service_.reset();
    db_.reset();
    store_.reset();
  }

  // A service whose mailer records what it is given (and queues nothing).
  std::unique_ptr<InvitationService> MakeService(const InvitationSettings& settings) {
    return std::make_unique<InvitationService>(
        *db_, clock_, kNoAudit, settings, [this](storage::TenantSession& tx, const InvitationEmail& mail, TimeMs now) {
          mails_.push_back({tx.tenant_id(), mail, now});
          return NewId();
        });
  }

  Principal MakeTenant(const std::string& slug) {
    Principal p = test::SeedTenant(*db_, slug);
    p.email = "boss-" + slug + "@example.com";
    p.display_name = "Boss " + slug;
    return p;
  }

  // A tenant (without an owner) that users of `domain` may join.
  std::string MakeOpenTenant(const std::string& slug, const std::string& domain, bool allow_all_users) {
    const std::string id = NewId();
    storage::Session s(*db_);
    s.Run(kInsertTenant, {id, "Open " + slug, slug + "-" + id.substr(24), domain, allow_all_users});
    return id;
  }

  std::string MakeUser(const std::string& email) {
    const std::string id = NewId();
    storage::Session s(*db_);
    s.Run(kInsertUser, {id, email, "User " + email});
    return id;
  }

  // What sign-in does: JoinOnSignIn in its own write transaction.
  std::vector<JoinedTenant> SignIn(const std::string& user_id, const std::string& email) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    auto joined = service_->JoinOnSignIn(session, user_id, email);
    EXPECT_TRUE(joined.ok()) << (joined.ok() ? "" : joined.error().detail);
    session.Commit();
    return joined.ok() ? *joined : std::vector<JoinedTenant>{};
  }

  // {role, is_active} of the membership, or nullopt.
  std::optional<std::pair<std::string, bool>> Membership(const std::string& tenant_id, const std::string& user_id) {
    storage::Session s(*db_);
    const auto rows = s.Run(kMembership, {tenant_id, user_id});
    if (rows.empty()) return std::nullopt;
    return std::make_pair(rows.front().Text(0), rows.front().Int(1) == 1);
  }

  Invitation Invite(const Principal& admin, const std::string& email, TenantRole role = TenantRole::kMember) {
    auto r = service_->Invite(admin, {email, role, std::nullopt});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().detail);
    EXPECT_TRUE(r.ok() && r->created);
    return r.ok() ? r->invitation : Invitation{};
  }

  std::string StatusOf(const Principal& admin, const std::string& id) {
    auto list = service_->List(admin, std::nullopt);
    if (!list.ok()) return "?";
    for (const auto& i : *list)
      if (i.id == id) return i.status;
    return "missing";
  }

  struct SentMail {
    std::string tenant_id;
    InvitationEmail mail;
    TimeMs queued_at;
  };

  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  ManualClock clock_{kStart};
  InvitationSettings settings_;
  std::unique_ptr<InvitationService> service_;
  std::vector<SentMail> mails_;
  Principal admin_;
};

TEST_P(InvitationServiceTest, AnInvitationExpiresAfterItsLifetimeAndTheEmailSaysWhen) {
  auto inv = Invite(admin_, "Ada@Example.COM", TenantRole::kGuest);
  EXPECT_EQ(inv.email, "ada@example.com");
  EXPECT_EQ(inv.status, "Pending");
  EXPECT_EQ(inv.expires_at, kStart + 14 * kDay);

  ASSERT_EQ(mails_.size(), 1u);
  const auto& m = mails_.front();
  EXPECT_EQ(m.tenant_id, admin_.tenant_id);
  EXPECT_EQ(m.queued_at, kStart);
  EXPECT_EQ(m.mail.to, "ada@example.com");
  EXPECT_EQ(m.mail.subject, "You are invited to join Tenant one on Credence");
  EXPECT_NE(m.mail.text.find("Boss one (boss-one@example.com) invited you to join the workspace Tenant one"),
            std::string::npos)
      << m.mail.text;
  EXPECT_NE(m.mail.text.find("as a Guest"), std::string::npos);
  EXPECT_NE(m.mail.text.find("https://credence.example.com/auth/login?provider=corp%20sso\n"), std::string::npos)
      << m.mail.text;
  EXPECT_NE(m.mail.text.find("expires on 2030-01-15 00:00 UTC"), std::string::npos) << m.mail.text;
  EXPECT_NE(m.mail.data_json.find("\"invitationId\":\"" + inv.id + "\""), std::string::npos);

  clock_.Set(kStart + 14 * kDay - 1);
  EXPECT_EQ(StatusOf(admin_, inv.id), "Pending");
  clock_.Set(kStart + 14 * kDay);
  EXPECT_EQ(StatusOf(admin_, inv.id), "Expired");
  auto expired = service_->List(admin_, std::string("Expired"));
  ASSERT_TRUE(expired.ok());
  ASSERT_EQ(expired->size(), 1u);
  auto pending = service_->List(admin_, std::string("Pending"));
  ASSERT_TRUE(pending.ok());
  EXPECT_TRUE(pending->empty());

  // An expired invitation cannot be accepted.
  const std::string ada = MakeUser("ada@example.com");
  EXPECT_TRUE(SignIn(ada, "ada@example.com").empty());
  EXPECT_FALSE(Membership(admin_.tenant_id, ada));
  EXPECT_EQ(StatusOf(admin_, inv.id), "Expired");
}

TEST_P(InvitationServiceTest, TheLifetimeAndTheLinkComeFromTheSettings) {
  InvitationSettings s;
  s.public_url = "http://10.0.0.5:8080";
  s.lifetime_days = 3;
  s.providers = {"google", "okta"};
  service_ = MakeService(s);
  auto inv = Invite(admin_, "bo@example.com");
  EXPECT_EQ(inv.expires_at, kStart + 3 * kDay);
  ASSERT_EQ(mails_.size(), 1u);
  EXPECT_NE(mails_.back().mail.text.find("\nhttp://10.0.0.5:8080/\n"), std::string::npos) << mails_.back().mail.text;

  s.providers = {};
  EXPECT_EQ(InvitationSignInLink(s), "http://10.0.0.5:8080/");
  s.providers = {"keycloak"};
  EXPECT_EQ(InvitationSignInLink(s), "http://10.0.0.5:8080/auth/login?provider=keycloak");
}

TEST_P(InvitationServiceTest, ReinvitingAPendingEmailAnswersItButAnExpiredOrRevokedOneIsReplaced) {
  auto first = Invite(admin_, "cy@example.com");
  auto again = service_->Invite(admin_, {"CY@example.com", TenantRole::kOwner, std::nullopt});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->created);
  EXPECT_EQ(again->invitation.id, first.id);
  EXPECT_EQ(mails_.size(), 1u) << "no second email for the same Pending invitation";

  clock_.Set(kStart + 20 * kDay);
  auto second = Invite(admin_, "cy@example.com", TenantRole::kOwner);
  EXPECT_NE(second.id, first.id);
  EXPECT_EQ(second.role, TenantRole::kOwner);
  EXPECT_EQ(StatusOf(admin_, first.id), "Expired");
  EXPECT_EQ(StatusOf(admin_, second.id), "Pending");
  EXPECT_EQ(mails_.size(), 2u);

  auto revoked = service_->Revoke(admin_, second.id);
  ASSERT_TRUE(revoked.ok());
  EXPECT_EQ(revoked->status, "Revoked");
  auto third = Invite(admin_, "cy@example.com");
  EXPECT_NE(third.id, second.id);
  EXPECT_EQ(StatusOf(admin_, second.id), "Revoked");
  EXPECT_EQ(mails_.size(), 3u);
}

TEST_P(InvitationServiceTest, RevocationRules) {
  auto inv = Invite(admin_, "di@example.com");
  auto other = MakeTenant("two");
  auto cross = service_->Revoke(other, inv.id);
  ASSERT_FALSE(cross.ok());
  EXPECT_EQ(cross.error().code, "not_found");
  auto unknown = service_->Revoke(admin_, NewId());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, "not_found");

  Principal member = admin_;
  member.role = TenantRole::kMember;
  auto forbidden = service_->Revoke(member, inv.id);
  ASSERT_FALSE(forbidden.ok());
  EXPECT_EQ(forbidden.error().code, "forbidden");

  clock_.Advance(kDay);
  auto revoked = service_->Revoke(admin_, inv.id);
  ASSERT_TRUE(revoked.ok());
  EXPECT_EQ(revoked->revoked_at, kStart + kDay);
  EXPECT_EQ(revoked->revoked_by, admin_.user_id);
  auto twice = service_->Revoke(admin_, inv.id);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->revoked_at, kStart + kDay) << "revoking again changes nothing";

  // A revoked invitation is not accepted.
  const std::string di = MakeUser("di@example.com");
  EXPECT_TRUE(SignIn(di, "di@example.com").empty());

  auto expiring = Invite(admin_, "ed@example.com");
  clock_.Advance(15 * kDay);
  auto late = service_->Revoke(admin_, expiring.id);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, "invitation_not_pending");

  auto accepted = Invite(admin_, "fay@example.com");
  const std::string fay = MakeUser("fay@example.com");
  ASSERT_EQ(SignIn(fay, "fay@example.com").size(), 1u);
  auto after = service_->Revoke(admin_, accepted.id);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().code, "invitation_not_pending");
}

TEST_P(InvitationServiceTest, BadInvitationsAreRefused) {
  for (const char* email : {"", "no-at-sign", "@example.com", "a@b@example.com", "a b@example.com", "a@localhost",
                            "a@example.com.", "<a@example.com>", "a@example..com"}) {
    auto r = service_->Invite(admin_, {email, TenantRole::kMember, std::nullopt});
    ASSERT_FALSE(r.ok()) << email;
    EXPECT_EQ(r.error().code, "validation_failed") << email;
  }
  Principal member = admin_;
  member.role = TenantRole::kMember;
  auto by_member = service_->Invite(member, {"x@example.com", TenantRole::kOwner, std::nullopt});
  ASSERT_FALSE(by_member.ok());
  EXPECT_EQ(by_member.error().code, "forbidden");
  auto bad_status = service_->List(admin_, std::string("pending"));
  ASSERT_FALSE(bad_status.ok());
  EXPECT_EQ(bad_status.error().code, "validation_failed");
  EXPECT_TRUE(mails_.empty());
}

TEST_P(InvitationServiceTest, SigningInAcceptsEveryPendingInvitationForTheEmail) {
  auto two = MakeTenant("two");
  auto three = MakeTenant("three");
  auto four = MakeTenant("four");
  auto a = Invite(admin_, "gil@example.com", TenantRole::kOwner);
  clock_.Advance(1);  // accepted oldest first
  auto b = Invite(two, "GIL@example.com", TenantRole::kGuest);
  auto c = Invite(three, "gil@example.com");
  ASSERT_TRUE(service_->Revoke(three, c.id).ok());
  clock_.Advance(kDay);
  Invite(four, "someone-else@example.com");

  const std::string gil = MakeUser("gil@example.com");
  auto joined = SignIn(gil, "Gil@Example.com");
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_EQ(joined[0].tenant_id, admin_.tenant_id);
  EXPECT_EQ(joined[0].role, TenantRole::kOwner);
  EXPECT_EQ(joined[0].via, "invitation");
  EXPECT_EQ(joined[0].invitation_id, a.id);
  EXPECT_EQ(joined[1].tenant_id, two.tenant_id);
  EXPECT_EQ(joined[1].role, TenantRole::kGuest);
  EXPECT_EQ(joined[1].invitation_id, b.id);

  EXPECT_EQ(Membership(admin_.tenant_id, gil), std::make_pair(std::string("Owner"), true));
  EXPECT_EQ(Membership(two.tenant_id, gil), std::make_pair(std::string("Guest"), true));
  EXPECT_FALSE(Membership(three.tenant_id, gil));
  EXPECT_FALSE(Membership(four.tenant_id, gil));

  auto list = service_->List(admin_, std::string("Accepted"));
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(list->front().accepted_user_id, gil);
  EXPECT_EQ(list->front().accepted_at, kStart + kDay + 1);

  // A member like any other: listed, and their preferences work.
  UserService users(*db_, clock_, kNoAudit);
  bool listed = false;
  for (const auto& u : users.List(admin_))
    if (u.id == gil) listed = u.role == TenantRole::kOwner && u.email == "gil@example.com";
  EXPECT_TRUE(listed);
  Principal as_gil;
  as_gil.tenant_id = two.tenant_id;
  as_gil.user_id = gil;
  as_gil.role = TenantRole::kGuest;
  EXPECT_TRUE(users.SetPreferredLanguage(as_gil, "es").ok());
  for (const auto& u : users.List(two))
    if (u.id == gil) EXPECT_EQ(u.preferred_language, "es");

  // Signing in again joins nothing more, and the invitations stay Accepted.
  EXPECT_TRUE(SignIn(gil, "gil@example.com").empty());
  EXPECT_EQ(StatusOf(two, b.id), "Accepted");

  // Now a member: inviting them again is 409.
  auto dup = service_->Invite(admin_, {"gil@example.com", TenantRole::kMember, std::nullopt});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, "already_member");
}

TEST_P(InvitationServiceTest, AnActiveMemberKeepsTheirRoleWhenAnInvitationIsAccepted) {
  const std::string hal = MakeUser("hal@example.com");
  auto inv = Invite(admin_, "hal@example.com", TenantRole::kGuest);
  {
    // Became a member some other way after being invited (e.g. by another email).
    storage::Session s(*db_);
    s.Run(kInsertMember, {admin_.tenant_id, hal, "Member"});
  }
  auto joined = SignIn(hal, "hal@example.com");
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_EQ(joined[0].role, TenantRole::kMember);
  EXPECT_EQ(Membership(admin_.tenant_id, hal), std::make_pair(std::string("Member"), true));
  EXPECT_EQ(StatusOf(admin_, inv.id), "Accepted");
}

TEST_P(InvitationServiceTest, TheEmailDomainJoinsOpenTenantsButNotAfterRemoval) {
  const std::string open = MakeOpenTenant("open", "Example.ORG", true);
  const std::string closed = MakeOpenTenant("closed", "example.org", false);
  const std::string other = MakeOpenTenant("other", "other.example.org", true);
  const std::string ivy = MakeUser("ivy@example.org");

  auto joined = SignIn(ivy, "Ivy@example.org");
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_EQ(joined[0].tenant_id, open);
  EXPECT_EQ(joined[0].role, TenantRole::kMember);
  EXPECT_EQ(joined[0].via, "domain");
  EXPECT_FALSE(joined[0].invitation_id);
  EXPECT_EQ(Membership(open, ivy), std::make_pair(std::string("Member"), true));
  EXPECT_FALSE(Membership(closed, ivy));
  EXPECT_FALSE(Membership(other, ivy));
  EXPECT_TRUE(SignIn(ivy, "ivy@example.org").empty()) << "already a member";

  // Removed by an admin of that tenant: signing in again does not bring her back.
  const std::string boss = MakeUser("boss@example.org");
  {
    storage::Session s(*db_);
    s.Run(kInsertMember, {open, boss, "Owner"});
  }
  Principal open_admin;
  open_admin.tenant_id = open;
  open_admin.user_id = boss;
  open_admin.role = TenantRole::kOwner;
  UserService users(*db_, clock_, kNoAudit);
  clock_.Advance(kDay);
  ASSERT_TRUE(users.RemoveFromTenant(open_admin, ivy).ok());
  {
    storage::Session s(*db_);
    const auto rows = s.Run(kMembership, {open, ivy});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows.front().Int(1), 0);
    EXPECT_EQ(rows.front().OptInt(2), kStart + kDay);
    EXPECT_EQ(rows.front().OptText(3), boss);
  }
  EXPECT_TRUE(SignIn(ivy, "ivy@example.org").empty());
  EXPECT_EQ(Membership(open, ivy), std::make_pair(std::string("Member"), false));

  // Only a new invitation brings her back, with the invited role.
  auto inv = Invite(open_admin, "ivy@example.org", TenantRole::kGuest);
  joined = SignIn(ivy, "ivy@example.org");
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_EQ(joined[0].via, "invitation");
  EXPECT_EQ(joined[0].invitation_id, inv.id);
  EXPECT_EQ(Membership(open, ivy), std::make_pair(std::string("Guest"), true));
  storage::Session s(*db_);
  const auto rows = s.Run(kMembership, {open, ivy});
  EXPECT_FALSE(rows.front().OptInt(2)) << "removed_at is cleared on rejoining";
}

TEST_P(InvitationServiceTest, JoinOnSignInRollsBackWithTheSignIn) {
  Invite(admin_, "jo@example.com");
  const std::string jo = MakeUser("jo@example.com");
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    auto joined = service_->JoinOnSignIn(session, jo, "jo@example.com");
    ASSERT_TRUE(joined.ok());
    EXPECT_EQ(joined->size(), 1u);
    // Not committed: sign-in failed after it.
  }
  EXPECT_FALSE(Membership(admin_.tenant_id, jo));
  EXPECT_EQ(SignIn(jo, "jo@example.com").size(), 1u);

  storage::Session session(*db_, storage::TxMode::kWrite);
  auto bad = service_->JoinOnSignIn(session, jo, "not-an-email");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "validation_failed");
}

// With the server's wiring: the email is a direct delivery in the outbox,
// committed with the invitation and only with it, and the worker sends it
// to the invited address (here: no SMTP server, so the attempt fails and is
// recorded for a retry).
TEST_P(InvitationServiceTest, TheEmailIsQueuedInTheOutboxInTheInvitingTransaction) {
  InvitationService wired(*db_, clock_, kNoAudit, settings_, notify::InvitationEmailsThroughOutbox());
  ASSERT_TRUE(wired.Invite(admin_, {"kim@example.com", TenantRole::kMember, std::nullopt}).ok());
  ASSERT_TRUE(wired.Invite(admin_, {"kim@example.com", TenantRole::kMember, std::nullopt}).ok());  // answered
  const std::string kim = MakeUser("kim@example.com");
  {
    storage::Session s(*db_);
    s.Run(kInsertMember, {admin_.tenant_id, kim, "Member"});
  }
  ASSERT_FALSE(wired.Invite(admin_, {"kim@example.com", TenantRole::kMember, std::nullopt}).ok());  // 409

  auto outbox_rows = [&] {
    storage::Session s(*db_);
    return s.Run(kOutboxOf, {admin_.tenant_id});
  };
  auto rows = outbox_rows();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows.front().OptText(0)) << "a direct email has no channel";
  EXPECT_EQ(rows.front().Text(1), "user.invitation");
  EXPECT_EQ(rows.front().Text(2), "You are invited to join Tenant one on Credence");
  EXPECT_EQ(rows.front().Text(4), "[\"kim@example.com\"]");
  EXPECT_EQ(rows.front().Text(5), "pending");

  notify::OutboxWorker worker(*db_, clock_, notify::DeliverySettings{});
  const auto run = worker.RunOnce();
  EXPECT_EQ(run.failed, 1);
  rows = outbox_rows();
  EXPECT_EQ(rows.front().Text(5), "pending");
}

// A store made before migrations 106 and 401 keeps its invitations (which
// get invited_at + 14 days as their expiry) and its queued deliveries.
TEST_P(InvitationServiceTest, OlderStoresUpgrade) {
  test::ScratchStore old_store(GetParam(), "credence-invitation-upgrade");
  auto db = storage::OpenDatabase(old_store.url(), {});
  std::vector<storage::Migration> before;
  for (const auto& m : app::AllMigrations())
    if (m.version != 106 && m.version != 401) before.push_back(m);
  storage::ApplyMigrations(*db, before);

  const Principal admin = test::SeedTenant(*db, "old");
  constexpr storage::GlobalQuery kOldInvitation{
      "invitation_test.old_invitation",
      "INSERT INTO invitations (tenant_id, id, email, role, status, invited_by, invited_at)"
      " VALUES ($1, $2, 'old@example.com', 'Member', 'Pending', $3, $4)"};
  constexpr storage::GlobalQuery kOldChannel{
      "invitation_test.old_channel",
      "INSERT INTO notification_channels (tenant_id, id, name, name_key, type, events, config, created_at, updated_at)"
      " VALUES ($1, $2, 'Mail', 'mail', 'email', '[]', '{}', 0, 0)"};
  constexpr storage::GlobalQuery kOldDelivery{
      "invitation_test.old_delivery",
      "INSERT INTO outbox (tenant_id, id, channel_id, event, subject, text, next_attempt_at, created_at)"
      " VALUES ($1, $2, $3, 'channel.test', 'S', 'T', 5, 5)"};
  const std::string invitation = NewId();
  const std::string channel = NewId();
  const std::string delivery = NewId();
  {
    storage::Session s(*db);
    s.Run(kOldInvitation, {admin.tenant_id, invitation, admin.user_id, kStart});
    s.Run(kOldChannel, {admin.tenant_id, channel});
    s.Run(kOldDelivery, {admin.tenant_id, delivery, channel});
  }
  EXPECT_EQ(storage::ApplyMigrations(*db, app::AllMigrations()), 2);

  InvitationService service(*db, clock_, kNoAudit);
  auto list = service.List(admin, std::nullopt);
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(list->front().expires_at, kStart + 14 * kDay);
  EXPECT_EQ(list->front().status, "Pending");
  clock_.Set(kStart + 14 * kDay);
  EXPECT_EQ(service.List(admin, std::string("Expired"))->size(), 1u);

  storage::Session s(*db);
  auto rows = s.Run(kOutboxOf, {admin.tenant_id});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().OptText(0), channel);
  EXPECT_EQ(rows.front().Text(5), "pending");
}

INSTANTIATE_TEST_SUITE_P(Backends, InvitationServiceTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::identity
