#include "plugins/lua/script_cache.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace credence::plugins::lua {
namespace {

constexpr std::string_view kV1 = "function guard(ctx) return true end";
constexpr std::string_view kV2 = "function guard(ctx) return false, 'v2' end";
constexpr std::string_view kPublishContext = R"({"action":"Entry.Publish","properties":{}})";

TEST(ScriptCache, SameVersionIsTheSameObject) {
  ScriptCache cache;
  auto a = cache.Get("t1/p/s", 1, kV1);
  auto b = cache.Get("t1/p/s", 1, kV1);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value().get(), b.value().get());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(ScriptCache, NewVersionRecompiles) {
  ScriptCache cache;
  auto a = cache.Get("t1/p/s", 1, kV1);
  auto b = cache.Get("t1/p/s", 2, kV2);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a.value().get(), b.value().get());
  EXPECT_EQ(Evaluate(*a.value(), kPublishContext).kind, Verdict::Kind::kAllow);
  EXPECT_EQ(Evaluate(*b.value(), kPublishContext).reason_code, "v2");
  auto c = cache.Get("t1/p/s", 2, kV2);
  EXPECT_EQ(b.value().get(), c.value().get());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(ScriptCache, KeysAreSeparate) {
  ScriptCache cache;
  auto a = cache.Get("t1/p/s", 1, kV1);
  auto b = cache.Get("t2/p/s", 1, kV1);
  EXPECT_NE(a.value().get(), b.value().get());
}

TEST(ScriptCache, CompileErrorsAreReturnedNotCached) {
  ScriptCache cache;
  auto bad = cache.Get("k", 1, "function guard(");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().fields.at(0).field, "source");
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ScriptCache, BoundedLeastRecentlyUsed) {
  ScriptCache cache(3);
  auto first = cache.Get("a", 1, kV1).value();
  (void)cache.Get("b", 1, kV1);
  (void)cache.Get("c", 1, kV1);
  (void)cache.Get("a", 1, kV1);  // a is now the most recent
  (void)cache.Get("d", 1, kV1);  // evicts b
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.Get("a", 1, kV1).value().get(), first.get());
}

TEST(ScriptCache, DefaultCapacityIs1024) {
  ScriptCache cache;
  for (int i = 0; i < 1100; ++i) (void)cache.Get("k" + std::to_string(i), 1, kV1);
  EXPECT_EQ(cache.size(), 1024u);
}

TEST(ScriptCache, ConcurrentGets) {
  ScriptCache cache(16);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        auto r = cache.Get("k" + std::to_string((i + t) % 24), i % 3, i % 2 == 0 ? kV1 : kV2);
        if (!r.ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(cache.size(), 16u);
}

}  // namespace
}  // namespace credence::plugins::lua
