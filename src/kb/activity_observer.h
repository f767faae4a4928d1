#pragma once
// What the knowledge base tells about reads and edits of entries, so that the
// analytics module (docs/analytics.md) can count them without kb depending on
// it: kb declares the interface, analytics implements it (as with
// content_observer.h).
#include <string>

#include "core/clock.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::kb {

class ActivityObserver {
 public:
  virtual ~ActivityObserver() = default;

  // A signed-in user read an entry (GET of the entry or of its hub's root),
  // shown in `language`. Called on the request's thread after the read; must
  // not block or touch the store (the implementation buffers it). Never throws.
  virtual void EntryRead(const std::string& tenant_id, const std::string& entry_id, const std::string& user_id,
                         const std::string& language, TimeMs now) const noexcept = 0;
  // A user changed an entry's content (the original or a translation in
  // `language`): called inside the edit's write transaction, so the record
  // exists exactly when the edit does. Throws only what storage throws.
  virtual void EntryEdited(storage::TenantSession& tx, const std::string& entry_id, const std::string& user_id,
                           const std::string& language, TimeMs now) const = 0;
};

// Observes nothing: for tools and tests that build an EntryService alone.
class NoActivityObserver final : public ActivityObserver {
 public:
  void EntryRead(const std::string&, const std::string&, const std::string&, const std::string&,
                 TimeMs) const noexcept override {}
  void EntryEdited(storage::TenantSession&, const std::string&, const std::string&, const std::string&,
                   TimeMs) const override {}
};
inline const NoActivityObserver kIgnoreActivity{};

}  // namespace credence::kb
