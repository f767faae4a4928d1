#pragma once
// What sync-now tells once its queued run is committed: this process's job
// runner (app::BackgroundJobs implements it; connectors/ does not depend on
// app/), which then runs a pass of the connector syncs at once instead of at
// its next turn, so the node that received the request takes the run
// (docs/connectors.md, "Syncs"). Other nodes see the run at their own next
// turn; the connector's lease keeps it to one of them.
//
// Wake must not block or throw: it is called on a request thread, after the
// request's transaction has committed.
namespace credence::connectors {

class SyncWaker {
 public:
  virtual ~SyncWaker() = default;
  virtual void Wake() = 0;
};

}  // namespace credence::connectors
