// The evaluation memo: a decision is reused only for the same clock-derived
// state, policy, context (by identity) and time facts; contexts are interned.
#include <gtest/gtest.h>

#include "trust/source_memo.h"

namespace credence::trust {
namespace {

struct Fixture {
  SourceState state;
  Policy policy;
  TimeFacts time{.expiry_passed = false, .review_age_days = 10, .freshness_score = 94};
  std::shared_ptr<const SourceMemo::Texts> Texts() const {
    auto t = std::make_shared<SourceMemo::Texts>();
    t->key = {state.status, state.expiry_at, state.days_until_expiry, policy, SourceDecision{}};
    t->result = "{}";
    return t;
  }
};

Context Channel(const std::string& channel) {
  Context c;
  c.channel = channel;
  return c;
}

TEST(SourceMemo, ADecisionIsReusedOnlyForTheSameStatePolicyContextAndTimeFacts) {
  ContextInterner contexts;
  const auto internal = contexts.Intern(Channel("internal"));
  const auto web = contexts.Intern(Channel("web"));
  Fixture f;
  f.state.status = kb::EntryStatus::kPublished;
  f.state.days_until_expiry = 30;
  SourceMemo memo;
  EXPECT_EQ(memo.FindDecided(f.state, f.policy, internal.get(), f.time), nullptr);
  const auto texts = f.Texts();
  memo.Put(texts);
  memo.Decided(internal, f.time, texts);
  EXPECT_EQ(memo.FindDecided(f.state, f.policy, internal.get(), f.time), texts);
  EXPECT_EQ(memo.FindDecided(f.state, f.policy, web.get(), f.time), nullptr);

  TimeFacts older = f.time;
  older.review_age_days = 11;
  EXPECT_EQ(memo.FindDecided(f.state, f.policy, internal.get(), older), nullptr);
  TimeFacts lower = f.time;
  lower.freshness_score = 93;
  EXPECT_EQ(memo.FindDecided(f.state, f.policy, internal.get(), lower), nullptr);
  Policy stricter = f.policy;
  stricter.internal_only = true;
  EXPECT_EQ(memo.FindDecided(f.state, stricter, internal.get(), f.time), nullptr);
  SourceState later = f.state;
  later.days_until_expiry = 29;
  EXPECT_EQ(memo.FindDecided(later, f.policy, internal.get(), f.time), nullptr);
}

TEST(SourceMemo, WhereTheEvidenceWentReachesEveryContextThatDecidedIt) {
  ContextInterner contexts;
  const auto a = contexts.Intern(Channel("a"));
  const auto b = contexts.Intern(Channel("b"));
  Fixture f;
  SourceMemo memo;
  const auto texts = f.Texts();
  memo.Put(texts);
  memo.Decided(a, f.time, texts);
  memo.Decided(b, f.time, texts);
  memo.Stored(texts.get(), StoredEvidence{"hash", 42});
  for (const auto& context : {a, b}) {
    const auto found = memo.FindDecided(f.state, f.policy, context.get(), f.time);
    ASSERT_NE(found, nullptr);
    ASSERT_TRUE(found->stored.has_value());
    EXPECT_EQ(found->stored->id, 42);
  }
  EXPECT_FALSE(texts->stored.has_value()) << "texts being answered are never changed in place";
}

TEST(ContextInterner, EqualContextsAreOneObjectAndTheOldestIsForgotten) {
  ContextInterner contexts;
  const auto first = contexts.Intern(Channel("internal"));
  EXPECT_EQ(contexts.Intern(Channel("internal")), first);
  EXPECT_NE(contexts.Intern(Channel("web")), first);
  Context with_model = Channel("internal");
  with_model.external_model = true;
  EXPECT_NE(contexts.Intern(with_model), first);
  for (int i = 0; i < 40; ++i) contexts.Intern(Channel("c" + std::to_string(i)));
  const auto again = contexts.Intern(Channel("internal"));
  EXPECT_NE(again, first) << "evicted: a new object, which memos do not mistake for the old one";
  EXPECT_EQ(*again, *first);
}

}  // namespace
}  // namespace credence::trust
