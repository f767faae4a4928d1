#include "retention/archive_file.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/json_text.h"
#include "integrity/signing_key.h"

namespace credence::retention {
namespace {

std::string Hex(const unsigned char* bytes, unsigned n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (unsigned i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

std::string Errno() { return std::strerror(errno); }

void SyncPath(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path + " to sync it: " + Errno());
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) throw std::runtime_error("cannot sync " + path + ": " + Errno());
}

std::string FileSha256(const std::string& path, int64_t& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read " + path + ": " + Errno());
  StreamingSha256 sha;
  char buffer[1 << 16];
  bytes = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      throw std::runtime_error("cannot read " + path + ": " + Errno());
    }
    if (n == 0) break;
    sha.Add({buffer, static_cast<size_t>(n)});
    bytes += n;
  }
  ::close(fd);
  return sha.Hex();
}

}  // namespace

StreamingSha256::StreamingSha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 is unavailable");
}
StreamingSha256::~StreamingSha256() { EVP_MD_CTX_free(ctx_); }
void StreamingSha256::Add(std::string_view bytes) { EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()); }
std::string StreamingSha256::Hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  EVP_DigestFinal_ex(ctx_, digest, &n);
  return retention::Hex(digest, n);
}

std::string SealMessage(std::string_view tenant_id, std::string_view kind, std::string_view period, int64_t records,
                        std::string_view sha256, TimeMs sealed_at) {
  std::string m = "credence-archive-seal:v1\n";
  m.append(tenant_id).append("\n").append(kind).append("\n").append(period).append("\n");
  m += std::to_string(records);
  m.append("\n").append(sha256).append("\n");
  m += FormatTimestamp(sealed_at);
  return m;
}

struct ArchiveWriter::State {
  std::string path, tmp;
  gzFile gz = nullptr;
  StreamingSha256 sha;
  bool sealed = false;
};

ArchiveWriter::ArchiveWriter(std::string path) : state_(std::make_unique<State>()) {
  state_->path = std::move(path);
  state_->tmp = state_->path + ".tmp";
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(state_->path).parent_path(), ec);
  if (ec) throw std::runtime_error("cannot create the directory of " + state_->path + ": " + ec.message());
  const int fd = ::open(state_->tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0) throw std::runtime_error("cannot create " + state_->tmp + ": " + Errno());
  state_->gz = gzdopen(fd, "wb6");
  if (state_->gz == nullptr) {
    ::close(fd);
    throw std::runtime_error("cannot start compressing " + state_->tmp);
  }
  gzbuffer(state_->gz, 1 << 17);
}

ArchiveWriter::~ArchiveWriter() {
  if (state_->gz != nullptr) gzclose(state_->gz);
  if (!state_->sealed) ::unlink(state_->tmp.c_str());
}

void ArchiveWriter::Line(std::string_view json) {
  if (json.find('\n') != std::string_view::npos) throw std::logic_error("an archive line holds a newline");
  state_->sha.Add(json);
  state_->sha.Add("\n");
  if (gzwrite(state_->gz, json.data(), static_cast<unsigned>(json.size())) != static_cast<int>(json.size()) ||
      gzputc(state_->gz, '\n') != '\n') {
    int err = 0;
    throw std::runtime_error("cannot write " + state_->tmp + ": " + gzerror(state_->gz, &err));
  }
}

SealedFile ArchiveWriter::Seal(const integrity::SigningKey& key, std::string_view tenant_id, std::string_view kind,
                               std::string_view period, int64_t records, TimeMs sealed_at) {
  const std::string digest = state_->sha.Hex();
  std::string seal;
  JsonObjectWriter w(seal);
  w.Str("type", "seal")
      .Int("records", records)
      .Str("sha256", digest)
      .Str("sealedAt", FormatTimestamp(sealed_at))
      .Str("keyId", key.key_id())
      .Str("signature", key.Sign(SealMessage(tenant_id, kind, period, records, digest, sealed_at)));
  w.Close();
  seal += '\n';
  if (gzwrite(state_->gz, seal.data(), static_cast<unsigned>(seal.size())) != static_cast<int>(seal.size()))
    throw std::runtime_error("cannot write " + state_->tmp);
  const int rc = gzclose(state_->gz);
  state_->gz = nullptr;
  if (rc != Z_OK) throw std::runtime_error("cannot finish " + state_->tmp + " (zlib error " + std::to_string(rc) + ")");
  SyncPath(state_->tmp, O_RDONLY);
  if (::rename(state_->tmp.c_str(), state_->path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + state_->tmp + " into place: " + Errno());
  state_->sealed = true;
  SyncPath(std::filesystem::path(state_->path).parent_path().string(), O_RDONLY | O_DIRECTORY);
  SealedFile out;
  out.path = state_->path;
  out.sha256 = FileSha256(state_->path, out.bytes);
  return out;
}

void ReadArchiveLines(const std::string& path, const std::function<void(std::string_view line)>& line,
                      size_t max_line) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read " + path + ": " + Errno());
  gzFile gz = gzdopen(fd, "rb");
  if (gz == nullptr) {
    ::close(fd);
    throw std::runtime_error("cannot read " + path);
  }
  struct Closer {
    gzFile gz;
    ~Closer() { gzclose(gz); }
  } closer{gz};
  // gzread passes a plain file through as it is: the first bytes tell a
  // gzip stream (1f 8b) from anything else.
  unsigned char magic[2] = {0, 0};
  {
    const int fd2 = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd2 >= 0) {
      if (::read(fd2, magic, 2) != 2) magic[0] = 0;
      ::close(fd2);
    }
  }
  if (magic[0] != 0x1f || magic[1] != 0x8b) throw std::runtime_error(path + " is not a gzip file");
  std::string pending;
  char buffer[1 << 16];
  for (;;) {
    const int n = gzread(gz, buffer, sizeof buffer);
    if (n < 0) {
      int err = 0;
      throw std::runtime_error(path + " is damaged: " + gzerror(gz, &err));
    }
    if (n == 0) break;
    size_t start = 0;
    for (int i = 0; i < n; ++i) {
      if (buffer[i] != '\n') continue;
      pending.append(buffer + start, static_cast<size_t>(i) - start);
      line(pending);
      pending.clear();
      start = static_cast<size_t>(i) + 1;
    }
    pending.append(buffer + start, static_cast<size_t>(n) - start);
    if (pending.size() > max_line) throw std::runtime_error(path + " has a line longer than " + std::to_string(max_line) + " bytes");
  }
  // gzread stops quietly at a truncated stream; gzerror tells.
  int err = Z_OK;
  const char* message = gzerror(gz, &err);
  if (err != Z_OK && err != Z_STREAM_END) throw std::runtime_error(path + " is damaged: " + message);
  if (!pending.empty()) throw std::runtime_error(path + " ends in the middle of a line (cut short?)");
}

}  // namespace credence::retention
