#include "support/connectors_fixture.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace credence::test {

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

GitRepoFixture::GitRepoFixture() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "credence-git-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  Git("init -q -b main .");
  Git("config user.email tests@credence.example");
  Git("config user.name Tests");
  Git("config commit.gpgsign false");
}

GitRepoFixture::~GitRepoFixture() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void GitRepoFixture::Git(const std::string& args) const {
  const std::string cmd = "cd " + Quote(dir_) + " && git " + args + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: git " + args);
}

void GitRepoFixture::Write(const std::string& relative, const std::string& content) {
  const auto path = std::filesystem::path(dir_) / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

void GitRepoFixture::Remove(const std::string& relative) { Git("rm -q " + Quote(relative)); }

void GitRepoFixture::Move(const std::string& from, const std::string& to) {
  Git("mv " + Quote(from) + " " + Quote(to));
}

std::string GitRepoFixture::Commit(const std::string& message, const std::string& iso) {
  Git("add -A");
  const std::string cmd = "cd " + Quote(dir_) + " && GIT_AUTHOR_DATE=" + Quote(iso) +
                          " GIT_COMMITTER_DATE=" + Quote(iso) + " git commit -q --allow-empty -m " + Quote(message) +
                          " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("git commit failed");
  return Head();
}

std::string GitRepoFixture::Head() const {
  const std::string cmd = "cd " + Quote(dir_) + " && git rev-parse HEAD";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed");
  std::array<char, 128> buf{};
  std::string out;
  while (fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

boost::json::value RunConnectorPass(HttpClient& client) {
  auto r = client.Post("/dev/connectors/run", boost::json::object{});
  if (r.status != 200) throw std::runtime_error("POST /dev/connectors/run failed: " + r.body);
  return r.Json();
}

bool HasReason(const boost::json::value& result, const std::string& code) {
  const auto* reasons = result.as_object().if_contains("reasons");
  if (reasons == nullptr) return false;
  for (const auto& r : reasons->as_array())
    if (r.at("code").as_string() == code) return true;
  return false;
}

}  // namespace credence::test
