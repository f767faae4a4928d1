#pragma once
// The archive file (docs/retention.md): gzip-compressed JSON Lines. The
// first line describes the archive, the last one seals it: the SHA-256 of
// every byte before it (uncompressed) signed with the chain-signing key, so
// a line altered, added, removed or reordered, or a file cut short, shows.
// Written to a temporary name, synced, then renamed into place: a crash
// leaves no half archive under the final name.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.h"

struct evp_md_ctx_st;

namespace credence::integrity {
class SigningKey;
}

namespace credence::retention {

inline constexpr char kArchiveFormat[] = "credence-archive/1";

// What the seal's signature covers:
// "credence-archive-seal:v1\n<tenant>\n<kind>\n<period>\n<records>\n<sha256>\n<sealed_at>",
// the time as RFC 3339 UTC with milliseconds.
std::string SealMessage(std::string_view tenant_id, std::string_view kind, std::string_view period, int64_t records,
                        std::string_view sha256, TimeMs sealed_at);

// SHA-256 fed piece by piece (OpenSSL EVP); Hex() once, at the end.
class StreamingSha256 {
 public:
  StreamingSha256();
  ~StreamingSha256();
  StreamingSha256(const StreamingSha256&) = delete;
  StreamingSha256& operator=(const StreamingSha256&) = delete;
  void Add(std::string_view bytes);
  std::string Hex();

 private:
  ::evp_md_ctx_st* ctx_;
};

struct SealedFile {
  std::string path;
  std::string sha256;  // of the file as stored (compressed)
  int64_t bytes = 0;
};

class ArchiveWriter {
 public:
  // Creates `path` + ".tmp" (and the directories above it). Throws
  // std::runtime_error naming the path when it cannot.
  explicit ArchiveWriter(std::string path);
  ~ArchiveWriter();  // an unsealed archive's temporary file is removed
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  // One line: `json` must be one JSON object without a newline.
  void Line(std::string_view json);
  // Appends the seal line, syncs the file, renames it into place and syncs
  // the directory.
  SealedFile Seal(const integrity::SigningKey& key, std::string_view tenant_id, std::string_view kind,
                  std::string_view period, int64_t records, TimeMs sealed_at);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Calls `line` for each line of the gzip file at `path`, in order, with its
// text (no newline). A line longer than `max_line` bytes, a file that is
// not gzip or is cut short: std::runtime_error naming the problem.
void ReadArchiveLines(const std::string& path, const std::function<void(std::string_view line)>& line,
                      size_t max_line = 64u << 20);

}  // namespace credence::retention
