#pragma once
// Connector tests: real Git repositories made with the git CLI in a
// temporary directory, and one pass of the connector syncs on demand.
#include <boost/json/value.hpp>

#include <string>

#include "support/http_client.h"

namespace credence::test {

class GitRepoFixture {
 public:
  GitRepoFixture();   // git init -b main in a fresh temporary directory
  ~GitRepoFixture();  // removes it
  GitRepoFixture(const GitRepoFixture&) = delete;
  GitRepoFixture& operator=(const GitRepoFixture&) = delete;

  const std::string& path() const { return dir_; }
  void Write(const std::string& relative, const std::string& content);
  void Remove(const std::string& relative);                   // git rm
  void Move(const std::string& from, const std::string& to);  // git mv
  // git add -A and commit, authored and committed at `iso`; the new HEAD.
  std::string Commit(const std::string& message, const std::string& iso = "2029-01-01T00:00:00Z");
  std::string Head() const;

 private:
  void Git(const std::string& args) const;
  std::string dir_;
};

// POST /dev/connectors/run; the answer.
boost::json::value RunConnectorPass(HttpClient& client);

// Whether a per-source decision has a reason with `code`.
bool HasReason(const boost::json::value& result, const std::string& code);

}  // namespace credence::test
