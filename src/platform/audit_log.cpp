#include "platform/audit_log.h"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <stdexcept>

#include "core/date_window.h"
#include "core/ids.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "integrity/archive_boundary.h"
#include "platform/internal/queries.h"
#include "storage/session.h"

namespace credence::platform {
namespace {


// Columns of CREDENCE_AUDIT_COLUMNS.
AuditEntry EntryFromRow(const storage::Row& r) {
  AuditEntry e;
  e.seq = r.Int(0);
  e.id = r.Text(1);
  e.at = r.Int(2);
  e.actor = {r.Text(3), r.Text(4), r.Text(5)};
  e.action = r.Text(6);
  e.target = {r.Text(7), r.Text(8)};
  e.outcome = r.Text(9);
  e.request_id = r.Text(10);
  e.client_address = r.Text(11);
  e.user_agent = r.Text(12);
  e.details_json = r.Text(13);
  e.prev_hash = r.Text(14);
  e.hash = r.Text(15);
  return e;
}

std::string DetailsJson(const boost::json::object& details) {
  std::string out = boost::json::serialize(details);
  if (out.size() > kMaxAuditDetailsBytes) return R"({"truncated":true})";
  return out;
}

// "c" + base64url("<seq>"): opaque to clients, and a cursor that was not
// handed out is recognizably not one.
std::string EncodeCursor(int64_t seq) { return "c" + Base64UrlEncode("seq:" + std::to_string(seq)); }

std::optional<int64_t> DecodeCursor(std::string_view cursor) {
  if (cursor.size() < 2 || cursor.size() > 64 || cursor[0] != 'c') return std::nullopt;
  auto text = Base64Decode(cursor.substr(1), true);
  if (!text || text->rfind("seq:", 0) != 0) return std::nullopt;
  int64_t seq = 0;
  const char* begin = text->data() + 4;
  const char* end = text->data() + text->size();
  auto [p, ec] = std::from_chars(begin, end, seq);
  if (ec != std::errc() || p != end || begin == end || seq < 1) return std::nullopt;
  return seq;
}

bool IsLowerSegment(std::string_view s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// A prefix filter: one or more segments followed by '.'.
bool IsActionPrefix(std::string_view s) {
  if (s.size() < 2 || s.back() != '.' || s.size() > 100) return false;
  s.remove_suffix(1);
  size_t start = 0;
  for (;;) {
    const size_t dot = s.find('.', start);
    if (!IsLowerSegment(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

void Fail(AuditVerifyResult& out, std::optional<std::string> id, int64_t seq, std::string why) {
  out.ok = false;
  out.first_invalid_id = std::move(id);
  out.first_invalid_seq = seq;
  out.problem = std::move(why);
}

}  // namespace

std::string EntryHash(const std::string& tenant_id, const AuditEntry& e) {
  std::string material = e.prev_hash;
  material += '\n';
  JsonObjectWriter w(material);
  w.Str("tenantId", tenant_id)
      .Int("seq", e.seq)
      .Str("id", e.id)
      .Int("at", e.at)
      .Str("actorType", e.actor.type)
      .Str("actorId", e.actor.id)
      .Str("actorLabel", e.actor.label)
      .Str("action", e.action)
      .Str("targetType", e.target.type)
      .Str("targetId", e.target.id)
      .Str("outcome", e.outcome)
      .Str("requestId", e.request_id)
      .Str("clientAddress", e.client_address)
      .Str("userAgent", e.user_agent)
      .Str("details", e.details_json);
  w.Close();
  return Sha256Hex(material);
}

void AuditLog::Record(storage::TenantSession& tx, const identity::AuditEvent& event) const {
  if (!identity::IsAuditActionName(event.action))
    throw std::invalid_argument("audit action name is malformed: " + event.action);
  auto head = tx.Run(internal::kAdvanceHead);
  if (head.empty()) {
    tx.Run(internal::kCreateHead, {kAuditGenesisHash});
    head = tx.Run(internal::kAdvanceHead);
    if (head.empty()) throw std::runtime_error("the audit chain head could not be created");
  }
  AuditEntry e;
  e.seq = head.front().Int(0);
  e.prev_hash = head.front().Text(1);
  e.id = NewId();
  e.at = clock_.Now();
  e.actor = event.actor;
  e.action = event.action;
  e.target = event.target;
  e.outcome = std::string(identity::AuditOutcomeName(event.outcome));
  e.request_id = event.request.request_id;
  e.client_address = event.request.client_address;
  e.user_agent = event.request.user_agent;
  e.details_json = DetailsJson(event.details);
  e.hash = EntryHash(tx.tenant_id(), e);
  tx.Run(internal::kInsertEntry,
         {e.seq, e.id, e.at, e.actor.type, e.actor.id, e.actor.label, e.action, e.target.type, e.target.id, e.outcome,
          e.request_id, e.client_address, e.user_agent, e.details_json, e.prev_hash, e.hash});
  tx.Run(internal::kSetHeadHash, {e.seq, e.hash});
}

void AuditLog::RecordAlone(const std::string& tenant_id, const identity::AuditEvent& event) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, tenant_id);
  Record(tx, event);
  session.Commit();
}

Result<AuditPage> AuditLog::List(const identity::Principal& caller, const AuditFilter& f, int64_t max_limit) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  std::vector<FieldError> errors;
  std::optional<std::string> action_exact, action_prefix;
  if (f.action) {
    if (identity::IsAuditActionName(*f.action)) {
      action_exact = f.action;
    } else if (IsActionPrefix(*f.action)) {
      action_prefix = f.action;
    } else {
      errors.push_back({"action", "must be an action name (dotted lowercase, e.g. apikey.created) or a prefix "
                                  "ending in '.' (e.g. apikey.)"});
    }
  }
  if (f.actor && (f.actor->empty() || f.actor->size() > 200)) errors.push_back({"actor", "must be 1..200 characters"});
  if (f.target_type && !IsLowerSegment(*f.target_type))
    errors.push_back({"targetType", "must be a target type (lowercase letters, e.g. apikey)"});
  if (f.target_id && (f.target_id->empty() || f.target_id->size() > 200))
    errors.push_back({"targetId", "must be 1..200 characters"});
  const TimeMs now = clock_.Now();
  std::optional<TimeMs> from, to;
  if (f.from) {
    from = ParseTimeBound(*f.from, false, now);
    if (!from) errors.push_back({"from", "must be a date YYYY-MM-DD or an RFC 3339 UTC timestamp"});
  }
  if (f.to) {
    to = ParseTimeBound(*f.to, true, now);
    if (!to) errors.push_back({"to", "must be a date YYYY-MM-DD or an RFC 3339 UTC timestamp"});
  }
  if (from && to && *to <= *from) errors.push_back({"to", "must not be before from"});
  int64_t limit = std::min(kDefaultAuditPageSize, max_limit);
  if (max_limit > kMaxAuditPageSize) limit = max_limit;  // exports: everything up to their bound by default
  if (f.limit) {
    int64_t n = 0;
    auto [p, ec] = std::from_chars(f.limit->data(), f.limit->data() + f.limit->size(), n);
    if (ec != std::errc() || p != f.limit->data() + f.limit->size() || n < 1 || n > max_limit)
      errors.push_back({"limit", "must be an integer from 1 to " + std::to_string(max_limit)});
    else
      limit = n;
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  std::optional<int64_t> before;
  if (f.cursor) {
    before = DecodeCursor(*f.cursor);
    if (!before) return Error::InvalidArgument("invalid_cursor", "The cursor is not one this server handed out.");
  }

  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  AuditPage page;
  auto rows = tenant.Run(internal::kList, {f.actor, action_exact, action_prefix, f.target_type, f.target_id, from, to,
                                           before, limit + 1});
  for (const auto& row : rows) {
    if (static_cast<int64_t>(page.entries.size()) == limit) {
      page.next_cursor = EncodeCursor(page.entries.back().seq);
      break;
    }
    page.entries.push_back(EntryFromRow(row));
  }
  return page;
}

Result<AuditVerification> AuditLog::Verify(const identity::Principal& caller,
                                           const std::optional<integrity::OutsideHead>& outside) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  AuditVerification out;
  out.records = VerifyAuditChain(tenant);
  // In the same snapshot, so a head signed meanwhile cannot look ahead of
  // the entries just read.
  if (heads_ != nullptr) out.heads = heads_->Check(tenant, kAuditChainName, 1, 0, outside);
  return out;
}

Result<std::vector<integrity::SignedHead>> AuditLog::Heads(const identity::Principal& caller, int64_t before_seq,
                                                           int64_t limit) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (heads_ == nullptr) return std::vector<integrity::SignedHead>{};
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  return heads_->ListHeads(tenant, kAuditChainName, before_seq, limit);
}

integrity::ChainSource AuditChain() {
  return integrity::SqlChainSource(kAuditChainName, internal::kChainTenants, internal::kLastEntry, internal::kHashAt);
}

ChainHead ReadChainHead(storage::TenantSession& tenant) {
  ChainHead head;
  if (auto last = tenant.Run(internal::kLastEntry); !last.empty()) {
    head.seq = last.front().Int(0);
    head.hash = last.front().Text(1);
  }
  return head;
}

std::optional<std::string> ChainHashAt(storage::TenantSession& tenant, int64_t seq) {
  if (seq == 0) return std::string(kAuditGenesisHash);
  auto rows = tenant.Run(internal::kHashAt, {seq});
  if (!rows.empty()) return rows.front().Text(0);
  if (auto boundary = integrity::ArchivedThrough(tenant, kAuditChainName); boundary && boundary->seq == seq)
    return boundary->hash;
  return std::nullopt;
}

AuditVerifyResult VerifyAuditChain(storage::TenantSession& tenant, int64_t from_seq, int64_t to_seq) {
  AuditVerifyResult out;
  from_seq = std::max<int64_t>(from_seq, 1);
  std::string prev = kAuditGenesisHash;
  // Entries up to the archive boundary are in archive files (verified
  // there); the walk starts after it, linked to its hash.
  if (auto boundary = integrity::ArchivedThrough(tenant, kAuditChainName); boundary && from_seq <= boundary->seq) {
    out.archived_through = boundary->seq;
    from_seq = boundary->seq + 1;
  }
  if (from_seq > 1) {
    auto before = ChainHashAt(tenant, from_seq - 1);
    if (!before) {
      Fail(out, std::nullopt, from_seq - 1, "entry " + std::to_string(from_seq - 1) + " of the chain is missing");
      return out;
    }
    prev = *before;
  }
  constexpr int64_t kPage = 500;
  int64_t next = from_seq;
  for (;;) {
    auto rows = tenant.Run(internal::kRange, {next, to_seq, kPage});
    for (const auto& r : rows) {
      const AuditEntry e = EntryFromRow(r);
      if (e.seq != next) {
        Fail(out, std::nullopt, next, "entry " + std::to_string(next) + " of the chain is missing");
        return out;
      }
      ++out.checked;
      if (e.prev_hash != prev) {
        Fail(out, e.id, e.seq, "the link to the previous entry does not match");
        return out;
      }
      if (EntryHash(tenant.tenant_id(), e) != e.hash) {
        Fail(out, e.id, e.seq, "the entry's hash does not match its content");
        return out;
      }
      prev = e.hash;
      ++next;
    }
    if (static_cast<int64_t>(rows.size()) < kPage) break;
  }
  if (to_seq != 0) return out;
  // The whole chain: its head row must name the last entry. A head beyond
  // it means entries were removed from the end; one short of it, an entry
  // was added without going through Record.
  const int64_t last = next - 1;
  auto head = tenant.Run(internal::kReadHead);
  if (head.empty()) {
    if (last > 0) Fail(out, std::nullopt, 1, "the chain head is missing");
    return out;
  }
  const int64_t head_seq = head.front().Int(0);
  if (head_seq > last) {
    Fail(out, std::nullopt, last + 1,
         "entries " + std::to_string(last + 1) + " to " + std::to_string(head_seq) + " are missing (the chain head is at " +
             std::to_string(head_seq) + ")");
  } else if (head_seq < last) {
    Fail(out, std::nullopt, head_seq + 1,
         "entry " + std::to_string(head_seq + 1) + " is beyond the chain head (" + std::to_string(head_seq) + ")");
  } else if (head.front().Text(1) != prev) {
    Fail(out, std::nullopt, last, "the chain head's hash does not match the last entry");
  }
  return out;
}

std::vector<AuditEntry> ReadAuditRange(storage::TenantSession& tenant, int64_t from_seq, int64_t to_seq,
                                       int64_t limit) {
  std::vector<AuditEntry> out;
  for (const auto& r : tenant.Run(internal::kRange, {from_seq, to_seq, limit})) out.push_back(EntryFromRow(r));
  return out;
}

std::vector<std::string> AuditChainTenants(storage::Session& session) {
  std::vector<std::string> out;
  for (const auto& r : session.Run(internal::kChainTenants)) out.push_back(r.Text(0));
  return out;
}

}  // namespace credence::platform
