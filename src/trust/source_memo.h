#pragma once
// What evaluation wrote and decided for one resolved source, so that the
// same source evaluated again costs neither the rules nor the writing.
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "trust/ledger.h"
#include "trust/model.h"

namespace credence::trust {

// The answer's decision object and the evidence last written for a source,
// under a key made of everything they depend on besides the resolved state
// itself (the decision and the time-derived fields); and, for the last few
// contexts it was evaluated in, which of those texts the rules decided. A
// resolved state never changes (a new generation makes new ones), so a memo
// is never stale. Shared by the copies of a cached source. Thread-safe.
class SourceMemo {
 public:
  // Everything the texts depend on besides the source's cached state: the
  // fields of the state derived from the clock, and the decision.
  struct Key {
    kb::EntryStatus status = kb::EntryStatus::kDraft;
    TimeMs expiry_at = 0;
    int64_t days_until_expiry = 0;
    Policy policy;  // as applied: an app's default policy may tighten the source's
    SourceDecision decision;
    bool operator==(const Key&) const = default;
  };
  struct Texts {
    Key key;
    std::string result;
    std::string evidence;
    std::optional<StoredEvidence> stored;
  };

  // What the rules decided before for this state (its clock-derived
  // fields), policy, context and time facts: the decision is
  // texts->key.decision. Null when there is no such decision and the rules
  // must run. The context is interned (ContextInterner): compared by
  // identity, never field by field per source.
  std::shared_ptr<const Texts> FindDecided(const SourceState& state, const Policy& policy, const Context* context,
                                           const TimeFacts& time) const;
  // The texts of `decision` for this state and policy, however it was
  // reached. Compared field by field: no key text is built.
  std::shared_ptr<const Texts> Find(const SourceState& state, const Policy& policy,
                                    const SourceDecision& decision) const;
  void Put(std::shared_ptr<const Texts> texts);
  // Remembers that the rules decided `texts` in `context` at `time`.
  void Decided(std::shared_ptr<const Context> context, const TimeFacts& time, std::shared_ptr<const Texts> texts);
  // Records where the evidence of `texts` (found or put before) is stored,
  // once it is committed; nothing when the memo has moved on.
  void Stored(const Texts* texts, const StoredEvidence& stored);

 private:
  struct DecidedIn {
    std::shared_ptr<const Context> context;
    TimeFacts time;
    std::shared_ptr<const Texts> texts;
  };
  // A source is usually asked about in few contexts at a time (an app or
  // two, an action or two); more alternate through the slots, correctly.
  static constexpr size_t kContextsKept = 4;

  mutable std::mutex mu_;
  std::shared_ptr<const Texts> last_;
  std::array<DecidedIn, kContextsKept> decided_;
  size_t next_slot_ = 0;
};

// Equal contexts as one shared object, so that memos compare contexts by
// identity. Keeps the last few; an evicted context interned again is a new
// object, which only costs memos a miss. Thread-safe.
class ContextInterner {
 public:
  std::shared_ptr<const Context> Intern(const Context& context);

 private:
  static constexpr size_t kKept = 16;
  std::mutex mu_;
  std::vector<std::shared_ptr<const Context>> recent_;  // most recent first
};

}  // namespace credence::trust
