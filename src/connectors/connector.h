#pragma once
// Connectors (docs/connectors.md): a tenant's configured sources of
// documents. Each has a key (the <connector_key> of its documents' source
// ids), a kind (git, web, push), settings, a schedule, and a status read
// from its runs. Syncs run in the background jobs (sync_engine.h); pushes
// arrive over the API (PushDocument).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace credence::connectors {

inline constexpr char kKindGit[] = "git";
inline constexpr char kKindWeb[] = "web";
inline constexpr char kKindPush[] = "push";

inline constexpr char kRunQueued[] = "queued";
inline constexpr char kRunRunning[] = "running";
inline constexpr char kRunSucceeded[] = "succeeded";
inline constexpr char kRunFailed[] = "failed";

inline constexpr int64_t kMaxScheduleMinutes = 525'600;  // a year
inline constexpr size_t kMaxConnectorNameLength = 200;
inline constexpr size_t kMaxRunErrorsListed = 100;
inline constexpr size_t kMaxRunsListed = 50;

// The kinds, in the order they are documented.
const std::vector<std::string>& ConnectorKinds();

struct Connector {
  std::string id;
  std::string key;
  std::string kind;
  std::string name;
  std::string settings;                     // JSON object text, as validated
  std::optional<int64_t> schedule_minutes;  // nullopt: manual only
  std::optional<TimeMs> next_run_at;
  std::optional<std::string> sync_cursor;
  std::optional<std::string> created_by;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  // The credential (credential.h): what answers may show, as JSON
  // (CredentialInfo), and the whole credential sealed (SecretBox); both
  // unset when there is none.
  std::optional<std::string> credential_info, credential_sealed;
};

struct RunError {
  std::string external_id;
  std::string message;
  TimeMs at = 0;
};

struct Run {
  std::string id;
  std::string connector_id;
  std::string trigger;  // manual | schedule
  std::string status;   // queued | running | succeeded | failed
  TimeMs queued_at = 0;
  std::optional<TimeMs> started_at, finished_at;
  TimeMs updated_at = 0;
  std::optional<std::string> target, base, checkpoint;
  int64_t attempts = 0;  // starts: 1, or more when it was resumed
  int64_t seen = 0, added = 0, changed = 0, removed = 0, unchanged = 0, failed = 0;
  std::optional<std::string> error;  // why the run failed as a whole
  std::vector<RunError> errors;      // documents that failed (at most kMaxRunErrorsListed)
};

// What GET answers: the connector with its status (its last run) and how
// many of its documents are live.
struct ConnectorView {
  Connector connector;
  std::optional<Run> last_run;
  std::optional<TimeMs> last_success_at;
  int64_t documents = 0;  // not removed
};

struct ConnectorInput {
  std::string key;
  std::string kind;
  std::string name;
  std::string settings = "{}";  // JSON object text
  std::optional<int64_t> schedule_minutes;
  // The "credential" member: absent (not given) keeps the stored one on
  // update; null (given, no text) removes it; else its JSON text.
  bool credential_given = false;
  std::optional<std::string> credential;
};

// A document as a kind (or a push) delivers it. The text is scanned and
// hashed, never stored.
struct SourceDocument {
  std::string external_id;
  std::optional<std::string> url;
  std::string title;
  std::string text;
  std::optional<std::string> owner_email;
  std::optional<TimeMs> reviewed_at;
  std::optional<std::string> review_type;
  // When the content last changed at the source; used when the content
  // hash differs from the stored one (default: now).
  std::optional<TimeMs> modified_at;
  // The source's own version (git: blob id) and HTTP validators (web).
  std::optional<std::string> source_version, etag, last_modified;
};

enum class WriteOutcome { kAdded, kChanged, kUnchanged };
std::string_view WriteOutcomeName(WriteOutcome o);

}  // namespace credence::connectors
