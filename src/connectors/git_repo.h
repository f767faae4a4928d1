#pragma once
// A connector's mirror of a Git repository (libgit2): a bare repository
// under the data directory, fetched from the connector's URL, read by
// commit. Not thread-safe: one sync uses one mirror.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "connectors/credential.h"
#include "core/clock.h"
#include "core/result.h"

struct git_repository;

namespace credence::connectors {

struct GitChange {
  std::string path;
  bool removed = false;
  std::string blob_id;  // hex; empty when removed
};

// libgit2's global state, once per process (every use of libgit2 needs it).
void InitLibgit2();

// How a fetch authenticates (docs/connectors.md, "Credentials"). With a
// credential, redirects are not followed, so it goes to the configured
// server only: basic answers that server's challenge, bearer is a header,
// sshKey is the deploy key, offered once the host key matched
// ssh_host_key.
struct GitAuth {
  std::optional<Credential> credential;
  std::optional<std::string> ssh_host_key;  // "SHA256:<base64>"; required for ssh URLs
};

class GitMirror {
 public:
  // Opens the mirror in `dir`, creating it (and its parents) when absent;
  // one made for another URL is made again.
  static Result<GitMirror> Open(const std::string& dir, const std::string& url);
  GitMirror(GitMirror&&) noexcept;
  GitMirror& operator=(GitMirror&&) noexcept;
  ~GitMirror();

  // Fetches `branch` from the URL; answers its tip's commit id. Errors say
  // what went wrong (unreachable, not a repository, no such branch, the
  // credential refused, another host key), never the credential.
  Result<std::string> Fetch(const std::string& branch, const GitAuth& auth = {});
  bool HasCommit(const std::string& commit_id) const;
  // The committer time of a commit, in milliseconds.
  TimeMs CommitTime(const std::string& commit_id) const;
  // The blobs of `target` whose paths `keep` accepts, by path (byte order).
  Result<std::vector<GitChange>> List(const std::string& target, bool (*keep)(std::string_view path)) const;
  // What changed from `base` to `target` among those paths, by path; a
  // rename is a removal and an addition (no rename detection).
  Result<std::vector<GitChange>> Diff(const std::string& base, const std::string& target,
                                      bool (*keep)(std::string_view path)) const;
  // A blob's bytes; an error when larger than `max_bytes`.
  Result<std::string> ReadBlob(const std::string& blob_id, int64_t max_bytes) const;
  // A file of `commit`, if it exists and is at most `max_bytes`.
  std::optional<std::string> ReadFile(const std::string& commit_id, const std::string& path, int64_t max_bytes) const;

 private:
  GitMirror(git_repository* repo, std::string url);
  Result<std::string> CopyLocal(const std::string& path, const std::string& branch);
  git_repository* repo_ = nullptr;
  std::string url_;
};

}  // namespace credence::connectors
