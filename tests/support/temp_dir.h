#pragma once
// A scratch directory for a test, removed at the end (kept when
// CREDENCE_TEST_KEEP is set, to look at what a failed test left).
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace credence::test {

struct TempDir {
  explicit TempDir(const std::string& prefix = "credence-test") {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (std::getenv("CREDENCE_TEST_KEEP") == nullptr) std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path;
};

}  // namespace credence::test
