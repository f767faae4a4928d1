#include "trust/source_memo.h"

#include <algorithm>

namespace credence::trust {
namespace {

bool SameClockFields(const SourceMemo::Key& key, const SourceState& state) {
  return key.status == state.status && key.expiry_at == state.expiry_at &&
         key.days_until_expiry == state.days_until_expiry;
}

}  // namespace

std::shared_ptr<const SourceMemo::Texts> SourceMemo::FindDecided(const SourceState& state, const Policy& policy,
                                                                 const Context* context, const TimeFacts& time) const {
  std::lock_guard lock(mu_);
  for (const DecidedIn& d : decided_) {
    if (d.context.get() != context || !d.texts || !(d.time == time)) continue;
    if (SameClockFields(d.texts->key, state) && d.texts->key.policy == policy) return d.texts;
  }
  return nullptr;
}

std::shared_ptr<const SourceMemo::Texts> SourceMemo::Find(const SourceState& state, const Policy& policy,
                                                          const SourceDecision& decision) const {
  std::lock_guard lock(mu_);
  if (last_ && SameClockFields(last_->key, state) && last_->key.decision == decision && last_->key.policy == policy)
    return last_;
  return nullptr;
}

void SourceMemo::Put(std::shared_ptr<const Texts> texts) {
  std::lock_guard lock(mu_);
  last_ = std::move(texts);
}

void SourceMemo::Decided(std::shared_ptr<const Context> context, const TimeFacts& time,
                         std::shared_ptr<const Texts> texts) {
  std::lock_guard lock(mu_);
  auto same = std::find_if(decided_.begin(), decided_.end(), [&](const DecidedIn& d) { return d.context == context; });
  DecidedIn& slot = same != decided_.end() ? *same : decided_[next_slot_++ % kContextsKept];
  slot = {std::move(context), time, std::move(texts)};
}

void SourceMemo::Stored(const Texts* texts, const StoredEvidence& stored) {
  std::lock_guard lock(mu_);
  // Texts are immutable (answers being written share them): a copy that
  // knows where its evidence is replaces every hold on the old one.
  std::shared_ptr<const Texts> next;
  auto upgrade = [&](std::shared_ptr<const Texts>& held) {
    if (held.get() != texts || held->stored) return;
    if (!next) {
      auto copy = std::make_shared<Texts>(*held);
      copy->stored = stored;
      next = std::move(copy);
    }
    held = next;
  };
  upgrade(last_);
  for (DecidedIn& d : decided_) upgrade(d.texts);
}

std::shared_ptr<const Context> ContextInterner::Intern(const Context& context) {
  std::lock_guard lock(mu_);
  auto it = std::find_if(recent_.begin(), recent_.end(), [&](const auto& c) { return *c == context; });
  if (it == recent_.begin() && it != recent_.end()) return *it;
  std::shared_ptr<const Context> out;
  if (it != recent_.end()) {
    out = *it;
    recent_.erase(it);
  } else {
    out = std::make_shared<const Context>(context);
    if (recent_.size() == kKept) recent_.pop_back();
  }
  recent_.insert(recent_.begin(), out);
  return out;
}

}  // namespace credence::trust
