// Invitations over real HTTP (docs/sign-in.md, "Invitations"): the email
// that arrives at a real SMTP server, expiry with the test clock, listing by
// status, revocation, re-inviting, isolation between tenants, bad input, and
// an acknowledged invitation's email surviving a crash. Accepting an
// invitation needs real sign-in; it is covered by the unit tests of
// identity::InvitationService::JoinOnSignIn.
// Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;

std::string UniqueAddress(const std::string& who) { return who + "-" + NewId().substr(24) + "@invite.example"; }

// A received message's decoded text, with LF line endings.
std::string Body(const json::value& message) {
  std::string out;
  for (const char c : message.at("body").as_string())
    if (c != '\r') out.push_back(c);
  return out;
}

// "2030-01-15 00:00 UTC", as the email writes a time.
std::string HumanTime(const std::string& iso) { return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC"; }

class InvitationLifecycle : public ClockedApiTest {
 protected:
  json::value Invite(const TestTenant& t, const std::string& email, const std::string& role = "Member",
                     int expected = 201) {
    auto r = api().Post("/api/users/invite", {{"email", email}, {"role", role}}, t.token("admin"));
    EXPECT_EQ(r.status, expected) << r.body;
    return r.Json();
  }

  std::vector<json::value> List(const TestTenant& t, const std::string& query = "") {
    auto r = api().Get("/api/users/invitations" + query, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<json::value> out;
    const auto body = r.Json();
    for (const auto& v : body.as_array()) out.push_back(v);
    return out;
  }

  json::value Find(const TestTenant& t, const std::string& id) {
    for (auto& i : List(t))
      if (Str(i, "id") == id) return i;
    ADD_FAILURE() << "invitation " << id << " not listed";
    return json::value();
  }
};

TEST_F(InvitationLifecycle, TheInvitationEmailArrivesWithTheSignInLinkAndNoSecret) {
  auto t = CreateTenant(api(), "inv-mail");
  const std::string to = UniqueAddress("newcomer");
  auto r = api().Post("/users/invite", {{"email", to}, {"role", "Guest"}, {"displayName", "Nia Newcomer"}},
                      t.token("admin"));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto inv = r.Json();
  const auto invited_at = ParseTimestamp(Str(inv, "invitedAt"));
  const auto expires_at = ParseTimestamp(Str(inv, "expiresAt"));
  ASSERT_TRUE(invited_at && expires_at);
  EXPECT_EQ(*expires_at - *invited_at, 14 * kMsPerDay) << "the default lifetime is 14 days";
  EXPECT_TRUE(inv.at("acceptedAt").is_null());
  EXPECT_TRUE(inv.at("acceptedUserId").is_null());
  EXPECT_TRUE(inv.at("revokedAt").is_null());
  EXPECT_TRUE(inv.at("revokedBy").is_null());

  // Queued, not sent, until the outbox runs.
  EXPECT_TRUE(SharedSmtpSink().MessagesTo(to).empty());
  RunJobs(api());
  auto messages = SharedSmtpSink().MessagesTo(to);
  ASSERT_EQ(messages.size(), 1u);
  const auto& m = messages[0];
  EXPECT_EQ(m.at("rcptTos").as_array().size(), 1u);
  const auto& headers = m.at("headers");
  EXPECT_EQ(Str(headers, "Subject"), "You are invited to join Tenant " + t.slug + " on Credence");
  EXPECT_EQ(Str(headers, "To"), to);
  EXPECT_EQ(Str(headers, "X-Credence-Event"), "user.invitation");
  const std::string body = Body(m);
  EXPECT_NE(body.find("Hello Nia Newcomer,"), std::string::npos) << body;
  EXPECT_NE(body.find("Ada Admin (admin@" + t.slug + ".example) invited you to join the workspace Tenant " + t.slug),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("as a Guest"), std::string::npos) << body;
  EXPECT_NE(body.find("sign in with this email address (" + to + ")"), std::string::npos) << body;
  // No providers are configured on the test server: the link is the sign-in
  // page of the server's own address.
  EXPECT_NE(body.find("\n" + SharedServer().base_url() + "/\n"), std::string::npos) << body;
  EXPECT_NE(body.find("expires on " + HumanTime(Str(inv, "expiresAt"))), std::string::npos) << body;
  // Nothing in it lets anyone in: no invitation id, no token.
  EXPECT_EQ(body.find(Str(inv, "id")), std::string::npos) << body;
  EXPECT_EQ(body.find("token"), std::string::npos) << body;

  // Inviting the Pending email again answers it and sends nothing more.
  auto again = api().Post("/api/users/invite", {{"email", to}}, t.token("admin"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json(), "id"), Str(inv, "id"));
  RunJobs(api());
  EXPECT_EQ(SharedSmtpSink().MessagesTo(to).size(), 1u);
}

TEST_F(InvitationLifecycle, AnInvitationExpiresWithTheClockAndCanBeSentAgain) {
  auto t = CreateTenant(api(), "inv-expiry");
  SetServerTime(api(), "2031-03-01T09:00:00Z");
  const std::string to = UniqueAddress("late");
  const auto first = Invite(t, to);
  EXPECT_EQ(Str(first, "expiresAt"), "2031-03-15T09:00:00.000Z");

  AdvanceServerDays(api(), 14 - 1.0 / 86'400);  // one second before
  EXPECT_EQ(Str(Find(t, Str(first, "id")), "status"), "Pending");
  AdvanceServerDays(api(), 1.0 / 86'400);
  EXPECT_EQ(Str(Find(t, Str(first, "id")), "status"), "Expired");
  for (const char* path : {"/api/users/invitations?status=Expired", "/users/invitations?status=Expired"}) {
    auto r = api().Get(path, t.token("admin"));
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_EQ(r.Json().as_array().size(), 1u);
    EXPECT_EQ(Str(r.Json().as_array()[0], "id"), Str(first, "id"));
  }
  EXPECT_TRUE(List(t, "?status=Pending").empty());

  // An expired invitation cannot be revoked, and re-inviting makes a new one
  // with a new email.
  ExpectProblem(api().Delete("/api/users/invitations/" + Str(first, "id"), t.token("admin")), 409,
                "invitation_not_pending");
  const auto second = Invite(t, to, "Owner", 201);
  EXPECT_NE(Str(second, "id"), Str(first, "id"));
  EXPECT_EQ(Str(second, "role"), "Owner");
  EXPECT_EQ(Str(second, "expiresAt"), "2031-03-29T09:00:00.000Z");
  EXPECT_EQ(Str(Find(t, Str(first, "id")), "status"), "Expired");
  EXPECT_EQ(List(t, "?status=Pending").size(), 1u);
  RunJobs(api());
  const auto messages = SharedSmtpSink().MessagesTo(to);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(Body(messages[1]).find("as an Owner"), std::string::npos);
  EXPECT_NE(Body(messages[1]).find("expires on 2031-03-29 09:00 UTC"), std::string::npos);
}

TEST_F(InvitationLifecycle, AdminsRevokeAPendingInvitationAndMayInviteAgain) {
  auto t = CreateTenant(api(), "inv-revoke");
  const std::string to = UniqueAddress("revoked");
  const auto inv = Invite(t, to);
  const std::string id = Str(inv, "id");

  for (const char* persona : {"editor", "viewer", "guest"}) {
    ExpectProblem(api().Delete("/api/users/invitations/" + id, t.token(persona)), 403, "forbidden");
    ExpectProblem(api().Get("/users/invitations", t.token(persona)), 403, "forbidden");
  }
  ExpectProblem(api().Delete("/api/users/invitations/" + std::string(kUnknownId), t.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/api/users/invitations/not-a-uuid", t.token("admin")), 400, "invalid_path_parameter");
  ExpectProblem(api().Delete("/users/invitations/" + id, ""), 401, "missing_credentials");

  auto revoked = api().Delete("/users/invitations/" + id, t.token("admin"));
  ASSERT_EQ(revoked.status, 204) << revoked.body;
  const auto after = Find(t, id);
  EXPECT_EQ(Str(after, "status"), "Revoked");
  EXPECT_EQ(Str(after, "revokedBy"), t.user_ids.at("admin"));
  EXPECT_FALSE(after.at("revokedAt").is_null());
  // Again: nothing changes.
  EXPECT_EQ(api().Delete("/api/users/invitations/" + id, t.token("admin")).status, 204);
  EXPECT_EQ(Str(Find(t, id), "revokedAt"), Str(after, "revokedAt"));
  EXPECT_EQ(List(t, "?status=Revoked").size(), 1u);
  EXPECT_TRUE(List(t, "?status=Pending").empty());

  const auto again = Invite(t, to, "Guest", 201);
  EXPECT_NE(Str(again, "id"), id);
  EXPECT_EQ(Str(Find(t, id), "status"), "Revoked");
  EXPECT_EQ(Str(Find(t, Str(again, "id")), "status"), "Pending");
}

TEST_F(InvitationLifecycle, AnotherTenantsInvitationsAreInvisible) {
  auto a = CreateTenant(api(), "inv-iso-a");
  auto b = CreateTenant(api(), "inv-iso-b");
  const std::string to = UniqueAddress("shared");
  const auto in_a = Invite(a, to);
  EXPECT_TRUE(List(b).empty());
  // The same email may be invited by another tenant: its own invitation.
  const auto in_b = Invite(b, to, "Guest", 201);
  EXPECT_NE(Str(in_b, "id"), Str(in_a, "id"));
  ExpectProblem(api().Delete("/api/users/invitations/" + Str(in_a, "id"), b.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/users/invitations/" + Str(in_a, "id"), b.token("admin")), 404, "not_found");
  EXPECT_EQ(Str(Find(a, Str(in_a, "id")), "status"), "Pending");
  ASSERT_EQ(List(b).size(), 1u);
  EXPECT_EQ(Str(List(b)[0], "id"), Str(in_b, "id"));
  // Each email names its own tenant.
  RunJobs(api());
  const auto messages = SharedSmtpSink().MessagesTo(to);
  ASSERT_EQ(messages.size(), 2u);
  std::vector<std::string> subjects;
  for (const auto& m : messages) subjects.emplace_back(Str(m.at("headers"), "Subject"));
  EXPECT_NE(std::find(subjects.begin(), subjects.end(), "You are invited to join Tenant " + a.slug + " on Credence"),
            subjects.end());
  EXPECT_NE(std::find(subjects.begin(), subjects.end(), "You are invited to join Tenant " + b.slug + " on Credence"),
            subjects.end());
}

TEST_F(InvitationLifecycle, BadInvitationsAreRefusedWithTheirOwnCodes) {
  auto t = CreateTenant(api(), "inv-bad");
  const std::string admin = t.token("admin");
  for (const char* email : {"", "plain", "@example.com", "a@b@example.com", "a b@example.com", "a@localhost",
                            "<a@example.com>", "a,b@example.com", "a@example..com"}) {
    SCOPED_TRACE(email);
    ExpectValidation(api().Post("/api/users/invite", {{"email", email}}, admin), "email");
  }
  ExpectValidation(api().Post("/api/users/invite", json::object{}, admin), "email");
  ExpectValidation(api().Post("/api/users/invite", {{"email", 42}}, admin), "email");
  ExpectValidation(api().Post("/api/users/invite", {{"email", std::string(250, 'a') + "@x.example"}}, admin), "email");
  for (const char* role : {"Admin", "owner", "", "Viewer"}) {
    SCOPED_TRACE(role);
    ExpectValidation(api().Post("/users/invite", {{"email", UniqueAddress("role")}, {"role", role}}, admin), "role");
  }
  ExpectValidation(
      api().Post("/users/invite", {{"email", UniqueAddress("name")}, {"displayName", std::string(201, 'n')}}, admin),
      "displayName");
  // Only Owners invite, so no one can grant more than they have.
  for (const char* persona : {"editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    ExpectProblem(api().Post("/api/users/invite", {{"email", UniqueAddress("x")}, {"role", "Owner"}}, t.token(persona)),
                  403, "forbidden");
    ExpectProblem(api().Post("/api/users/invite", {{"email", UniqueAddress("x")}}, t.token(persona)), 403, "forbidden");
  }
  EXPECT_TRUE(List(t).empty());
}

TEST_F(InvitationLifecycle, UsersAndTheirRemovalStayAsTheyWere) {
  auto t = CreateTenant(api(), "inv-users");
  ASSERT_EQ(api().Delete("/users/" + t.user_ids.at("viewer"), t.token("admin")).status, 204);
  auto users = api().Get("/api/users", t.token("admin"));
  ASSERT_EQ(users.status, 200) << users.body;
  EXPECT_EQ(users.Json().as_array().size(), 3u);
  EXPECT_EQ(api().Get("/users/me", t.token("viewer")).status, 401) << "a removed member's credential stops working";
  // The removed member may be invited back.
  Invite(t, "viewer@" + t.slug + ".example", "Guest", 201);
  ExpectProblem(api().Delete("/users/" + t.user_ids.at("admin"), t.token("admin")), 400, "cannot_remove_self");
}

TEST_F(InvitationLifecycle, AnOwnerChangesAMembersRoleButNeverLeavesTheTenantOwnerless) {
  auto t = CreateTenant(api(), "inv-roles");
  const std::string admin = t.token("admin");
  const std::string editor = t.user_ids.at("editor");
  auto role_of = [&](const std::string& persona) {
    return Str(api().Get("/api/users/me", t.token(persona)).Json(), "tenantRole");
  };
  EXPECT_EQ(role_of("editor"), "Member");
  auto changed = api().Put("/api/users/" + editor + "/role", {{"role", "Guest"}}, admin);
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(Str(changed.Json(), "tenantRole"), "Guest");
  EXPECT_EQ(role_of("editor"), "Guest");  // the editor's next request
  // Made an Owner, the editor may administer; the first Owner may then step down, not the last.
  ASSERT_EQ(api().Put("/users/" + editor + "/role", {{"role", "Owner"}}, admin).status, 200);
  EXPECT_EQ(api().Get("/api/admin/audit", t.token("editor")).status, 200);
  ASSERT_EQ(api().Put("/api/users/" + t.user_ids.at("admin") + "/role", {{"role", "Member"}}, t.token("editor")).status,
            200);
  ExpectProblem(api().Put("/api/users/" + editor + "/role", {{"role", "Member"}}, t.token("editor")), 400,
                "last_owner");
  ExpectProblem(api().Put("/api/users/" + editor + "/role", {{"role", "Guest"}}, admin), 403, "forbidden");

  ExpectValidation(api().Put("/api/users/" + editor + "/role", {{"role", "Admin"}}, t.token("editor")), "role");
  ExpectProblem(api().Put(std::string("/api/users/") + kUnknownId + "/role", {{"role", "Guest"}}, t.token("editor")),
                404, "not_found");
  auto other = CreateTenant(api(), "inv-roles-other");
  ExpectProblem(api().Put("/api/users/" + t.user_ids.at("viewer") + "/role", {{"role", "Guest"}}, other.token("admin")),
                404, "not_found");
  auto audit = api().Get("/api/admin/audit?action=user.role_changed", t.token("editor"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_EQ(audit.Json().at("entries").as_array().size(), 3u) << audit.body;
}

// An invitation the API acknowledged has its email in the store: a crash
// before the outbox ran loses neither. Also: --invitation-days.
TEST(InvitationsCrash, AnAcknowledgedInvitationsEmailSurvivesACrash) {
  if (BackendUnavailable()) GTEST_SKIP() << "PostgreSQL backend unavailable";
  ServerProcess server({.dev = true,
                        .extra_args = {"--test-clock", "--jobs-interval-ms", "0", "--smtp-url", SharedSmtpSink().url(),
                                       "--invitation-days", "3"}});
  const std::string to = UniqueAddress("survivor");
  std::string id;
  {
    HttpClient client(server.base_url());
    auto t = CreateTenant(client, "inv-crash");
    auto r = client.Post("/api/users/invite", {{"email", to}}, t.token("admin"));
    ASSERT_EQ(r.status, 201) << r.body;
    id = Str(r.Json(), "id");
    EXPECT_EQ(*ParseTimestamp(Str(r.Json(), "expiresAt")) - *ParseTimestamp(Str(r.Json(), "invitedAt")), 3 * kMsPerDay);
  }
  server.Kill();  // SIGKILL, before any job ran
  server.Restart();
  HttpClient client(server.base_url());
  EXPECT_TRUE(SharedSmtpSink().MessagesTo(to).empty());
  RunJobs(client);
  const auto messages = SharedSmtpSink().MessagesTo(to);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(Body(messages[0]).find("\n" + server.base_url() + "/\n"), std::string::npos);
}

}  // namespace
}  // namespace credence::test
