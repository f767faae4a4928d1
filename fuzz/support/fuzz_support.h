#pragma once
// Shared by the fuzz targets (docs/fuzzing.md).
#include <cstdlib>
#include <cstdio>
#include <string_view>

namespace credence::app {
class ServiceSet;
}
namespace credence::storage {
class Database;
}

namespace credence::fuzz {

// The server's services in development mode over a fresh SQLite store with
// every migration, built on first use and kept for the process (a fuzz
// process runs many inputs against one server). Not thread-safe.
storage::Database& FuzzDatabase();
const app::ServiceSet& FuzzServices();

// A broken invariant: prints it with the input and aborts, which libFuzzer
// reports as a crash and saves the input.
[[noreturn]] inline void Fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n%.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace credence::fuzz

// Aborts with the condition's text when it does not hold (asserts vanish
// under NDEBUG; these never do).
#define FUZZ_CHECK(cond, detail) \
  do {                           \
    if (!(cond)) ::credence::fuzz::Fail(#cond, (detail)); \
  } while (0)
