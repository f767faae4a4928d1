#pragma once
// Slow work that must not run inside a write transaction. An admission
// hook's HTTP call made inside a guarded action's transaction would hold
// that transaction (on SQLite the one write lock, every tenant's writes)
// for as long as the hook takes. Instead, code deep inside the action
// throws OutsideTransaction with the work; the HTTP dispatcher, where no
// transaction is open, catches it, runs the work, and runs the whole
// handler again, which then finds the work's result (the guard pipeline
// keeps hook verdicts for the retry on the thread: plugins/guard_pipeline).
//
// Only where it is allowed (AllowWorkOutsideTransaction in scope, as the
// dispatcher sets around a handler): the action must not have committed
// anything before the throw (guarded actions ask their guards before they
// change anything, kb/action_guard.h), and its handler must be safe to run
// again. A handler that commits several actions one after another (bulk
// renew) keeps the work inside with InlineWorkOnly.
#include <cstdint>
#include <exception>
#include <functional>
#include <utility>

namespace credence {

class OutsideTransaction : public std::exception {
 public:
  explicit OutsideTransaction(std::function<void()> work) : work_(std::move(work)) {}
  const char* what() const noexcept override { return "work to run outside the transaction"; }
  void Run() const { work_(); }

 private:
  std::function<void()> work_;
};

namespace outside_transaction_internal {
inline thread_local int allowed = 0;
inline thread_local uint64_t run = 0;
}

// Whether code on this thread may throw OutsideTransaction.
inline bool WorkOutsideTransactionAllowed() { return outside_transaction_internal::allowed > 0; }

// Which RunWithWorkOutsideTransaction this thread is in: results kept for
// a retry are good for that run only.
inline uint64_t CurrentWorkRun() { return outside_transaction_internal::run; }

// Within its scope, slow work is done where it is met (the old way).
class InlineWorkOnly {
 public:
  InlineWorkOnly() : saved_(outside_transaction_internal::allowed) { outside_transaction_internal::allowed = 0; }
  ~InlineWorkOnly() { outside_transaction_internal::allowed = saved_; }
  InlineWorkOnly(const InlineWorkOnly&) = delete;
  InlineWorkOnly& operator=(const InlineWorkOnly&) = delete;

 private:
  int saved_;
};

// Runs `action`, allowing it to hand slow work out (OutsideTransaction):
// the work runs, then the action again; a third request for work is done
// inline (the context kept changing under the action).
template <typename Action>
auto RunWithWorkOutsideTransaction(Action&& action) {
  ++outside_transaction_internal::run;
  for (int attempt = 0;; ++attempt) {
    ++outside_transaction_internal::allowed;
    struct Restore {
      ~Restore() { --outside_transaction_internal::allowed; }
    } restore;
    if (attempt >= 2) {
      InlineWorkOnly inline_only;
      return action();
    }
    try {
      return action();
    } catch (const OutsideTransaction& pending) {
      pending.Run();
    }
  }
}

}  // namespace credence
