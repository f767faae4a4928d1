#pragma once
// What the operator's store commands (`credence admin migrate-database`,
// `backup`, `restore`) share in reporting: a failure with its exit code, its
// line on stderr, and durations for their JSON summaries.
#include <chrono>
#include <cstdio>
#include <string>

namespace credence::app {

// A failure with its exit code: 2 for what the operator typed (the usage
// follows the message), 1 for what happened.
struct Failure {
  int code;
  std::string message;
};

// Prints "credence admin COMMAND: message" (and the usage for a code 2) on
// stderr; returns the exit code.
inline int Report(const char* command, const char* usage, const Failure& f) {
  std::fprintf(stderr, "credence admin %s: %s\n", command, f.message.c_str());
  if (f.code == 2) std::fprintf(stderr, "\nusage:\n%s", usage);
  return f.code;
}

inline double SecondsSince(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Seconds with three decimals, for a JSON number.
inline std::string Fixed(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

}  // namespace credence::app
