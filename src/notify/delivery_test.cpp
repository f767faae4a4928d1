// Notifications without the HTTP layer: payloads, the email message, the
// webhook signature, the retry schedule, channel rules; then the outbox
// against a real store (SQLite, and PostgreSQL when CREDENCE_TEST_PG_URL is
// set): queueing in the caller's transaction, back-off until dead, claims
// that expire and are retaken. Sending to real receivers is covered by
// tests/api/notify_api_test.cpp.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <netinet/in.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "identity/principal.h"
#include "notify/channel.h"
#include "notify/channel_service.h"
#include "notify/delivery.h"
#include "notify/internal/outbox_store.h"
#include "notify/outbox.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/query.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"

namespace credence::notify {
namespace {

namespace json = boost::json;

std::string Base64Decode(std::string_view s) {
  std::string out(s.size(), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
  if (n < 0) return "<invalid>";
  size_t size = static_cast<size_t>(n);
  // EVP_DecodeBlock counts the padding as zero bytes.
  if (s.size() >= 1 && s[s.size() - 1] == '=') --size;
  if (s.size() >= 2 && s[s.size() - 2] == '=') --size;
  out.resize(size);
  return out;
}

// Decodes a header value made of encoded words (as EncodeHeaderValue writes
// them), checking that every word is whole UTF-8 on its own.
std::string DecodeWords(const std::string& value, bool* words_are_whole) {
  std::string out;
  size_t pos = 0;
  *words_are_whole = true;
  while ((pos = value.find("=?UTF-8?B?", pos)) != std::string::npos) {
    const size_t start = pos + 10;
    const size_t end = value.find("?=", start);
    const std::string word = Base64Decode(value.substr(start, end - start));
    // A word that ends inside a character has a lead byte without its tail.
    size_t i = 0;
    while (i < word.size()) {
      const auto lead = static_cast<unsigned char>(word[i]);
      const size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (i + length > word.size()) *words_are_whole = false;
      i += length;
    }
    out += word;
    pos = end + 2;
  }
  return out;
}

int HexValue(char c) { return c <= '9' ? c - '0' : c - 'A' + 10; }

std::string DecodeQuotedPrintable(const std::string& qp) {
  std::string out;
  for (size_t i = 0; i < qp.size(); ++i) {
    if (qp[i] == '=' && qp.compare(i + 1, 2, "\r\n") == 0) {
      i += 2;
    } else if (qp[i] == '=') {
      out += static_cast<char>(HexValue(qp[i + 1]) * 16 + HexValue(qp[i + 2]));
      i += 2;
    } else {
      out += qp[i];
    }
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find("\r\n", start);
    out.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return out;
}

TEST(NotifyPayload, SlackAndTeamsBodies) {
  const auto slack = json::parse(SlackBody("Entry expires", "Renew \"Policy\" soon.")).as_object();
  EXPECT_EQ(slack.size(), 1u);
  EXPECT_EQ(slack.at("text").as_string(), "Entry expires\nRenew \"Policy\" soon.");

  const auto teams = json::parse(TeamsBody("Entry expires", "Renew it.")).as_object();
  EXPECT_EQ(teams.at("@type").as_string(), "MessageCard");
  EXPECT_EQ(teams.at("@context").as_string(), "https://schema.org/extensions");
  EXPECT_EQ(teams.at("summary").as_string(), "Entry expires");
  EXPECT_EQ(teams.at("title").as_string(), "Entry expires");
  EXPECT_EQ(teams.at("text").as_string(), "Renew it.");
}

TEST(NotifyPayload, WebhookBodyCarriesTheEventAndItsData) {
  Delivery d;
  d.id = "01900000-0000-7000-8000-000000000001";
  d.tenant_id = "tenant-1";
  d.event = "entry.expired";
  d.subject = "Expired";
  d.text = "It expired.";
  d.data_json = R"({"entryId":"e1","days":-1})";
  d.created_at = *ParseTimestamp("2030-01-02T03:04:05.678Z");
  const auto body = json::parse(WebhookBody(d)).as_object();
  EXPECT_EQ(body.at("event").as_string(), "entry.expired");
  EXPECT_EQ(body.at("deliveryId").as_string(), d.id);
  EXPECT_EQ(body.at("tenantId").as_string(), "tenant-1");
  EXPECT_EQ(body.at("occurredAt").as_string(), "2030-01-02T03:04:05.678Z");
  EXPECT_EQ(body.at("subject").as_string(), "Expired");
  EXPECT_EQ(body.at("text").as_string(), "It expired.");
  EXPECT_EQ(body.at("data").at("entryId").as_string(), "e1");
  EXPECT_EQ(body.at("data").at("days").as_int64(), -1);
  // Data that is not a JSON object is sent as an empty object.
  d.data_json = "[1, 2";
  EXPECT_TRUE(json::parse(WebhookBody(d)).at("data").as_object().empty());
}

TEST(NotifyPayload, HmacSha256MatchesRfc4231) {
  // RFC 4231, test case 2.
  EXPECT_EQ(HmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(WebhookSignature("Jefe", "what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_NE(HmacSha256Hex("Jefe", "what do ya want for nothing!"),
            HmacSha256Hex("Jefe", "what do ya want for nothing?"));
}

TEST(NotifyPayload, RetryDelayDoublesFromThirtySecondsUpToAnHour) {
  const std::vector<TimeMs> expected = {30'000, 60'000, 120'000, 240'000, 480'000, 960'000, 1'920'000, 3'600'000};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(RetryDelay(static_cast<int>(i + 1)), expected[i]) << i + 1;
  EXPECT_EQ(RetryDelay(30), 3'600'000);
  EXPECT_EQ(RetryDelay(1000), 3'600'000);
}

TEST(NotifyEmail, PlainAsciiSubjectsStayAsTheyAre) {
  EXPECT_EQ(EncodeHeaderValue("Entry 'Policy' expires in 3 days"), "Entry 'Policy' expires in 3 days");
  // A line break cannot start another header.
  EXPECT_EQ(EncodeHeaderValue("Hi\r\nBcc: victim@example.com"), "Hi  Bcc: victim@example.com");
  // Text that looks like an encoded word is encoded, so it reads back as typed.
  EXPECT_EQ(EncodeHeaderValue("=?UTF-8?B?eA==?=").rfind("=?UTF-8?B?", 0), 0u);
  bool whole = false;
  EXPECT_EQ(DecodeWords(EncodeHeaderValue("=?UTF-8?B?eA==?="), &whole), "=?UTF-8?B?eA==?=");
}

TEST(NotifyEmail, NonAsciiSubjectsAreRfc2047EncodedWordsOfWholeCharacters) {
  const std::string subject = "Grüße aus Köln: «Richtlinie» läuft ab ✓";
  const std::string encoded = EncodeHeaderValue(subject);
  EXPECT_EQ(encoded.rfind("=?UTF-8?B?", 0), 0u) << encoded;
  bool whole = false;
  EXPECT_EQ(DecodeWords(encoded, &whole), subject);
  EXPECT_TRUE(whole);

  std::string long_subject;
  for (int i = 0; i < 60; ++i) long_subject += "é✓x";
  const std::string folded = EncodeHeaderValue(long_subject);
  EXPECT_EQ(DecodeWords(folded, &whole), long_subject);
  EXPECT_TRUE(whole) << folded;
  const auto lines = Lines(folded);
  EXPECT_GT(lines.size(), 1u);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_LE(lines[i].size() + (i == 0 ? 9 : 0), 78u) << lines[i];
    if (i > 0) {
      EXPECT_EQ(lines[i][0], ' ') << "folded lines start with a blank";
    }
  }
  EXPECT_EQ(folded.find('\n'), folded.find("\r\n") + 1);
}

TEST(NotifyEmail, QuotedPrintableIsDotSafeAndKeepsLinesShort) {
  EXPECT_EQ(QuotedPrintable(".hidden\n.\nend"), "=2Ehidden\r\n=2E\r\nend\r\n");
  EXPECT_EQ(QuotedPrintable("a=b café"), "a=3Db caf=C3=A9\r\n");
  EXPECT_EQ(QuotedPrintable("trailing \nblank\t"), "trailing=20\r\nblank=09\r\n");
  EXPECT_EQ(QuotedPrintable("a\nb\r\nc\rd\n"), "a\r\nb\r\nc\r\nd\r\n");
  EXPECT_EQ(QuotedPrintable("one\n\ntwo"), "one\r\n\r\ntwo\r\n");

  std::string line;
  for (int i = 0; i < 40; ++i) line += "word. ";
  line += std::string(100, '.');
  const std::string qp = QuotedPrintable(line + "\n" + std::string(200, 'x'));
  for (const auto& l : Lines(qp)) {
    EXPECT_LE(l.size(), 76u) << l;
    EXPECT_NE(l.rfind('.', 0), 0u) << "a line starts with a dot: " << l;
  }
  EXPECT_EQ(DecodeQuotedPrintable(qp), line + "\r\n" + std::string(200, 'x') + "\r\n");
  // No bare CR or LF anywhere.
  std::string stripped = qp;
  for (size_t p; (p = stripped.find("\r\n")) != std::string::npos;) stripped.erase(p, 2);
  EXPECT_EQ(stripped.find_first_of("\r\n"), std::string::npos);
}

TEST(NotifyEmail, MessageHasTheRfc5322HeadersAndCrlfLines) {
  EmailMessage m;
  m.from = "credence@example.org";
  m.to = {"a@example.com", "b@example.com"};
  m.subject = "Ablauf: «Richtlinie»";
  m.text = "Line one\n.line two\nlast";
  m.message_id = "01900000-0000-7000-8000-000000000009@example.org";
  m.date = *ParseTimestamp("2030-01-01T08:09:10Z");
  m.extra_headers = {{"X-Credence-Event", "entry.expired"}};
  const std::string message = FormatEmail(m);

  const auto split = message.find("\r\n\r\n");
  ASSERT_NE(split, std::string::npos);
  const std::string head = message.substr(0, split + 2);
  const std::string body = message.substr(split + 4);
  EXPECT_NE(head.find("From: credence@example.org\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("To: a@example.com,\r\n b@example.com\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Subject: =?UTF-8?B?"), std::string::npos) << head;
  EXPECT_NE(head.find("Date: Tue, 01 Jan 2030 08:09:10 +0000\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Message-ID: <01900000-0000-7000-8000-000000000009@example.org>\r\n"), std::string::npos);
  EXPECT_NE(head.find("MIME-Version: 1.0\r\n"), std::string::npos);
  EXPECT_NE(head.find("Content-Type: text/plain; charset=utf-8\r\n"), std::string::npos);
  EXPECT_NE(head.find("Content-Transfer-Encoding: quoted-printable\r\n"), std::string::npos);
  EXPECT_NE(head.find("X-Credence-Event: entry.expired\r\n"), std::string::npos);
  EXPECT_EQ(body, "Line one\r\n=2Eline two\r\nlast\r\n");
  std::string stripped = message;
  for (size_t p; (p = stripped.find("\r\n")) != std::string::npos;) stripped.erase(p, 2);
  EXPECT_EQ(stripped.find_first_of("\r\n"), std::string::npos) << "bare CR or LF";
  EXPECT_EQ(Rfc5322Date(*ParseTimestamp("2026-11-22T17:32:07.123Z")), "Sun, 22 Nov 2026 17:32:07 +0000");
}

TEST(NotifyChannel, ValidationNamesTheFieldAndNormalizes) {
  ChannelInput email{" Ops mail ", "email", true, std::nullopt, {{" ops@example.com "}, true, "", std::nullopt}};
  ASSERT_TRUE(ValidateChannelInput(email).ok());
  EXPECT_EQ(email.name, "Ops mail");
  EXPECT_EQ(email.config.recipients, std::vector<std::string>{"ops@example.com"});
  EXPECT_EQ(*email.events, ChannelEvents());

  ChannelInput chat{"Chat",
                    "slack",
                    true,
                    std::vector<std::string>{"entry.expired", "entry.warning", "entry.expired"},
                    {{}, false, "https://hooks.example.com/services/T0/B0/x", std::nullopt}};
  ASSERT_TRUE(ValidateChannelInput(chat).ok());
  EXPECT_EQ(*chat.events, (std::vector<std::string>{"entry.warning", "entry.expired"}));

  auto field_of = [](ChannelInput in) {
    auto s = ValidateChannelInput(in);
    return s.ok() || s.error().fields.empty() ? std::string("<none>") : s.error().fields.front().field;
  };
  EXPECT_EQ(field_of({"", "email", true, std::nullopt, {{"a@b.co"}, false, "", std::nullopt}}), "name");
  EXPECT_EQ(field_of({std::string(201, 'n'), "email", true, std::nullopt, {{"a@b.co"}, false, "", std::nullopt}}),
            "name");
  EXPECT_EQ(field_of({"x", "sms", true, std::nullopt, {}}), "type");
  EXPECT_EQ(field_of({"x", "email", true, std::nullopt, {}}), "config.recipients");
  EXPECT_EQ(field_of({"x", "email", true, std::nullopt, {{"a@b.co", "not an address"}, false, "", std::nullopt}}),
            "config.recipients[1]");
  EXPECT_EQ(field_of({"x", "email", true, std::nullopt, {{"a@b.co\r\nRCPT TO:<x@y.z>"}, false, "", std::nullopt}}),
            "config.recipients[0]");
  EXPECT_EQ(field_of({"x", "teams", true, std::nullopt, {}}), "config.webhookUrl");
  EXPECT_EQ(field_of({"x", "teams", true, std::nullopt, {{}, false, "ftp://example.com/x", std::nullopt}}),
            "config.webhookUrl");
  EXPECT_EQ(field_of({"x", "webhook", true, std::nullopt, {{}, false, "https:///nohost", std::nullopt}}), "config.url");
  EXPECT_EQ(field_of({"x", "webhook", true, std::nullopt, {{}, false, "https://example.com/h", "short"}}),
            "config.secret");
  EXPECT_EQ(field_of({"x", "webhook", true, std::vector<std::string>{}, {{}, false, "https://example.com", {}}}),
            "events");
  EXPECT_EQ(field_of({"x",
                      "webhook",
                      true,
                      std::vector<std::string>{"entry.expired", "entry.deleted"},
                      {{}, false, "https://example.com", {}}}),
            "events[1]");
}

TEST(NotifyChannel, UrlHostAndAddresses) {
  EXPECT_EQ(UrlHost("https://user:secret@Hooks.Example.COM:8443/services/T0?token=x"), "hooks.example.com");
  EXPECT_EQ(UrlHost("http://127.0.0.1:9/hook"), "127.0.0.1");
  EXPECT_EQ(UrlHost("not a url"), "");
  EXPECT_TRUE(IsHttpUrl("https://example.com"));
  EXPECT_TRUE(IsHttpUrl("HTTP://example.com/x?y=1"));
  EXPECT_FALSE(IsHttpUrl("mailto:a@b.co"));
  EXPECT_FALSE(IsHttpUrl("https://exa mple.com/"));
  EXPECT_FALSE(IsHttpUrl("https://example.com/\r\nX: y"));
  EXPECT_TRUE(IsPlainEmail("first.last+tag@sub.example.co"));
  EXPECT_FALSE(IsPlainEmail("a@b"));
  EXPECT_FALSE(IsPlainEmail("a@@b.co"));
  EXPECT_FALSE(IsPlainEmail("<a@b.co>"));
  EXPECT_FALSE(IsPlainEmail("a@b.co,c@d.co"));
  EXPECT_FALSE(IsPlainEmail("ä@b.co"));
}

// ---- The outbox against a real store.

constexpr storage::TenantQuery kOutboxRows{
    "notify_test.outbox_rows",
    "SELECT channel_id, recipients, event FROM outbox WHERE tenant_id = $1 ORDER BY channel_id"};
constexpr storage::TenantQuery kOutboxCount{"notify_test.outbox_count",
                                            "SELECT COUNT(*) FROM outbox WHERE tenant_id = $1"};

// A loopback port nothing listens on (bound, then released).
int ClosedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

class OutboxTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);  // not a line per migration or failed attempt
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-notify-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    admin_ = MakeTenant("one");
    // The receivers of these tests listen on loopback, as in development
    // mode (docs/outbound.md).
    channels_ = std::make_unique<ChannelService>(*db_, clock_, outbound::Policy{.allow_loopback = true});
  }

  void TearDown() override {
    channels_.reset();
    db_.reset();
    store_.reset();
  }

  identity::Principal MakeTenant(const std::string& slug) { return test::SeedTenant(*db_, slug, /*with_owner=*/false); }

  std::string MakeChannel(const identity::Principal& owner, ChannelInput input) {
    auto c = channels_->Create(owner, input);
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().detail);
    return c.ok() ? c->id : "";
  }

  static ChannelInput Webhook(const std::string& name, const std::string& url,
                              std::optional<std::vector<std::string>> events = std::nullopt, bool enabled = true) {
    return {name, "webhook", enabled, std::move(events), {{}, false, url, std::nullopt}};
  }
  static ChannelInput Email(const std::string& name, bool notify_owners,
                            std::optional<std::vector<std::string>> events = std::nullopt) {
    return {name, "email", true, std::move(events), {{"team@example.com"}, notify_owners, "", std::nullopt}};
  }

  DeliveryRecord OnlyDelivery(const std::string& channel) {
    auto list = channels_->Deliveries(admin_, channel);
    EXPECT_TRUE(list.ok());
    EXPECT_EQ(list->size(), 1u);
    return list->empty() ? DeliveryRecord{} : list->front();
  }

  ManualClock clock_{*ParseTimestamp("2030-01-01T00:00:00Z")};
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<ChannelService> channels_;
  identity::Principal admin_;

 private:
  std::unique_ptr<test::ScratchStore> store_;
};

TEST_P(OutboxTest, QueueForChannelsHonoursEnabledEventsAndOwners) {
  const std::string dead_url = "http://127.0.0.1:" + std::to_string(ClosedPort()) + "/hook";
  const std::string expired_only = MakeChannel(admin_, Webhook("Expired only", dead_url, {{"entry.expired"}}));
  const std::string owners = MakeChannel(admin_, Email("Owners too", true));
  const std::string team = MakeChannel(admin_, Email("Team only", false));
  const std::string disabled = MakeChannel(admin_, Webhook("Disabled", dead_url, std::nullopt, false));
  const auto other = MakeTenant("two");
  MakeChannel(other, Webhook("Other tenant", dead_url));

  OutboundMessage m;
  m.event = "entry.expired";
  m.subject = "Expired";
  m.text = "Entry expired.";
  m.data_json = R"({"entryId":"e1"})";
  m.owner_emails = {"owner@example.com", "not an address\r\nRCPT TO:<x@y.z>"};
  {
    // Not committed: nothing was queued.
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, admin_.tenant_id);
    EXPECT_EQ(QueueForChannels(tenant, m, clock_.Now()), 3);
  }
  {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, admin_.tenant_id);
    EXPECT_EQ(tenant.Run(kOutboxCount).front().Int(0), 0);
  }
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, admin_.tenant_id);
    EXPECT_EQ(QueueForChannels(tenant, m, clock_.Now()), 3);
    m.event = "entry.warning";
    EXPECT_EQ(QueueForChannels(tenant, m, clock_.Now()), 2);
    m.event = "channel.test";
    EXPECT_EQ(QueueForChannels(tenant, m, clock_.Now()), 0);
    session.Commit();
  }
  storage::Session session(*db_);
  storage::TenantSession tenant(session, admin_.tenant_id);
  std::map<std::string, std::vector<std::string>> events;
  std::map<std::string, std::string> recipients;
  for (const auto& r : tenant.Run(kOutboxRows)) {
    events[r.Text(0)].push_back(r.Text(2));
    recipients[r.Text(0)] = r.Text(1);
  }
  EXPECT_EQ(events[expired_only], std::vector<std::string>{"entry.expired"});
  EXPECT_EQ(events[owners].size(), 2u);
  EXPECT_EQ(events[team].size(), 2u);
  EXPECT_FALSE(events.count(disabled));
  // Only a channel that notifies owners carries their (well-formed) addresses.
  EXPECT_EQ(StringListFromJson(recipients[owners]), std::vector<std::string>{"owner@example.com"});
  EXPECT_TRUE(StringListFromJson(recipients[team]).empty());
  EXPECT_TRUE(StringListFromJson(recipients[expired_only]).empty());
  storage::TenantSession other_tenant(session, other.tenant_id);
  EXPECT_EQ(other_tenant.Run(kOutboxCount).front().Int(0), 0);
}

TEST_P(OutboxTest, FailuresBackOffThenTheDeliveryIsDead) {
  const std::string id =
      MakeChannel(admin_, Webhook("Down", "http://127.0.0.1:" + std::to_string(ClosedPort()) + "/hook"));
  DeliverySettings settings;
  settings.timeout_ms = 2000;
  settings.outbound.allow_loopback = true;
  const OutboxWorker worker(*db_, clock_, settings);
  ASSERT_TRUE(channels_->SendTest(admin_, id).ok());

  const std::vector<TimeMs> delays = {30'000, 60'000, 120'000, 240'000, 480'000, 960'000, 1'920'000};
  for (size_t attempt = 1; attempt <= 8; ++attempt) {
    SCOPED_TRACE(attempt);
    const auto r = worker.RunOnce();
    EXPECT_EQ(r.delivered, 0);
    EXPECT_EQ(r.failed, attempt < 8 ? 1 : 0);
    EXPECT_EQ(r.dead, attempt < 8 ? 0 : 1);
    const auto d = OnlyDelivery(id);
    EXPECT_EQ(d.attempts, static_cast<int64_t>(attempt));
    ASSERT_TRUE(d.last_error.has_value());
    EXPECT_NE(d.last_error->find("HTTP request failed"), std::string::npos) << *d.last_error;
    const auto stats = channels_->Stats(admin_, id);
    EXPECT_EQ(stats->failure_count, static_cast<int64_t>(attempt));
    EXPECT_EQ(stats->success_count, 0);
    EXPECT_EQ(stats->last_used_at, clock_.Now());
    if (attempt == 8) {
      EXPECT_EQ(d.status, "dead");
      EXPECT_FALSE(d.next_attempt_at.has_value());
      EXPECT_EQ(stats->pending_count, 0);
      break;
    }
    EXPECT_EQ(d.status, "pending");
    EXPECT_EQ(d.next_attempt_at, clock_.Now() + delays[attempt - 1]);
    EXPECT_EQ(stats->pending_count, 1);
    // Not due a millisecond early.
    clock_.Advance(delays[attempt - 1] - 1);
    const auto early = worker.RunOnce();
    EXPECT_EQ(early.failed + early.dead + early.delivered, 0);
    clock_.Advance(1);
  }
  clock_.Advance(kMsPerDay);
  const auto after = worker.RunOnce();
  EXPECT_EQ(after.failed + after.dead + after.delivered, 0);
}

TEST_P(OutboxTest, ClaimsExpireAndOnlyTheHolderRecords) {
  const std::string id = MakeChannel(admin_, Webhook("Claimed", "http://127.0.0.1:9/hook"));
  ASSERT_TRUE(channels_->SendTest(admin_, id).ok());
  const TimeMs now = clock_.Now();

  const auto a = internal::ClaimDue(*db_, "pass-a", now, now + 1000, 10);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].channel_id, id);
  EXPECT_EQ(a[0].event, "channel.test");
  EXPECT_EQ(a[0].tenant_id, admin_.tenant_id);
  EXPECT_EQ(a[0].attempts, 0);
  // A live claim keeps others away; an expired one does not.
  EXPECT_TRUE(internal::ClaimDue(*db_, "pass-b", now + 999, now + 2000, 10).empty());
  const auto b = internal::ClaimDue(*db_, "pass-b", now + 1000, now + 2000, 10);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].id, a[0].id);

  // The first pass lost its claim: its outcome is not recorded.
  EXPECT_FALSE(internal::RecordSuccess(*db_, a[0], "pass-a", now + 1500));
  EXPECT_EQ(internal::RecordFailure(*db_, a[0], "pass-a", "late", 8, now + 1500), internal::FailureOutcome::kClaimLost);
  EXPECT_EQ(OnlyDelivery(id).status, "pending");
  EXPECT_EQ(OnlyDelivery(id).attempts, 0);
  EXPECT_EQ(channels_->Stats(admin_, id)->failure_count, 0);

  EXPECT_TRUE(internal::RecordSuccess(*db_, b[0], "pass-b", now + 1600));
  const auto d = OnlyDelivery(id);
  EXPECT_EQ(d.status, "delivered");
  EXPECT_EQ(d.attempts, 1);
  EXPECT_EQ(d.delivered_at, now + 1600);
  const auto stats = channels_->Stats(admin_, id);
  EXPECT_EQ(stats->success_count, 1);
  EXPECT_EQ(stats->last_used_at, now + 1600);
  EXPECT_EQ(stats->pending_count, 0);
  // Recorded once: a second success by the same pass changes nothing.
  EXPECT_FALSE(internal::RecordSuccess(*db_, b[0], "pass-b", now + 1700));
  EXPECT_TRUE(internal::ClaimDue(*db_, "pass-c", now + kMsPerDay, now + kMsPerDay + 1000, 10).empty());
}

TEST_P(OutboxTest, WorkersRunningAtOnceNeverAttemptADeliveryTwice) {
  const std::string id =
      MakeChannel(admin_, Webhook("Shared", "http://127.0.0.1:" + std::to_string(ClosedPort()) + "/hook"));
  constexpr int kDeliveries = 30;
  for (int i = 0; i < kDeliveries; ++i) ASSERT_TRUE(channels_->SendTest(admin_, id).ok());
  DeliverySettings settings;
  settings.batch_size = 4;
  std::vector<std::unique_ptr<OutboxWorker>> workers;
  for (int i = 0; i < 3; ++i) workers.push_back(std::make_unique<OutboxWorker>(*db_, clock_, settings));
  std::vector<OutboxRunResult> results(workers.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers.size(); ++i) threads.emplace_back([&, i] { results[i] = workers[i]->RunOnce(); });
  for (auto& t : threads) t.join();

  int failed = 0;
  for (const auto& r : results) failed += r.failed;
  EXPECT_EQ(failed, kDeliveries);
  const auto list = channels_->Deliveries(admin_, id);
  ASSERT_EQ(list->size(), static_cast<size_t>(kDeliveries));
  for (const auto& d : *list) EXPECT_EQ(d.attempts, 1) << d.id;
  EXPECT_EQ(channels_->Stats(admin_, id)->failure_count, kDeliveries);
}

TEST_P(OutboxTest, EmailWithoutAnSmtpServerFailsWithAClearError) {
  const std::string id = MakeChannel(admin_, Email("Mail", false));
  const OutboxWorker worker(*db_, clock_, DeliverySettings{});
  ASSERT_TRUE(channels_->SendTest(admin_, id).ok());
  EXPECT_EQ(worker.RunOnce().failed, 1);
  const auto d = OnlyDelivery(id);
  ASSERT_TRUE(d.last_error.has_value());
  EXPECT_NE(d.last_error->find("--smtp-url"), std::string::npos) << *d.last_error;
}

TEST_P(OutboxTest, DeletingAChannelDeletesItsDeliveries) {
  const std::string keep = MakeChannel(admin_, Webhook("Keep", "http://127.0.0.1:9/keep"));
  const std::string drop = MakeChannel(admin_, Webhook("Drop", "http://127.0.0.1:9/drop"));
  ASSERT_TRUE(channels_->SendTest(admin_, keep).ok());
  ASSERT_TRUE(channels_->SendTest(admin_, drop).ok());
  ASSERT_TRUE(channels_->SendTest(admin_, drop).ok());
  ASSERT_TRUE(channels_->Delete(admin_, drop).ok());
  storage::Session session(*db_);
  storage::TenantSession tenant(session, admin_.tenant_id);
  EXPECT_EQ(tenant.Run(kOutboxCount).front().Int(0), 1);
  EXPECT_EQ(channels_->Deliveries(admin_, drop).error().kind, ErrorKind::kNotFound);
}

INSTANTIATE_TEST_SUITE_P(Backends, OutboxTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::notify
