#include "connectors/git_repo.h"

#include <git2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "core/ids.h"
#include "telemetry/outbound_call.h"

namespace credence::connectors {
namespace {

std::string LastError(const std::string& what) {
  const git_error* e = git_error_last();
  return what + (e != nullptr && e->message != nullptr ? std::string(": ") + e->message : std::string());
}

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const {
    if (p != nullptr) Free(p);
  }
};
using Commit = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using Tree = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using Remote = std::unique_ptr<git_remote, Deleter<git_remote, git_remote_free>>;
using Reference = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using Blob = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using TreeEntry = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;

std::string Hex(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

Result<Tree> TreeOf(git_repository* repo, const std::string& commit_id) {
  git_oid oid;
  if (git_oid_fromstr(&oid, commit_id.c_str()) != 0) return Error::Internal("bad commit id " + commit_id);
  git_commit* c = nullptr;
  if (git_commit_lookup(&c, repo, &oid) != 0) return Error::Internal(LastError("commit " + commit_id));
  Commit commit(c);
  git_tree* t = nullptr;
  if (git_commit_tree(&t, commit.get()) != 0) return Error::Internal(LastError("tree of " + commit_id));
  return Tree(t);
}

std::string RefName(const std::string& branch) { return "refs/credence/heads/" + branch; }

// What the fetch callbacks share; `refused` is our own account of an
// authentication failure, clearer than libgit2's.
struct AuthPayload {
  const GitAuth* auth = nullptr;
  int attempts = 0;
  std::string refused;
};

int OnCredentials(git_credential** out, const char* url, const char* username_from_url, unsigned int allowed_types,
                  void* payload) {
  auto* p = static_cast<AuthPayload*>(payload);
  if (!p->auth->credential) {
    p->refused = "the repository asks for a credential and the connector has none";
    return GIT_EAUTH;
  }
  const Credential& c = *p->auth->credential;
  (void)url;
  const std::string user = username_from_url != nullptr && *username_from_url != '\0' ? username_from_url : c.username;
  if (c.kind == kCredentialSshKey && (allowed_types & GIT_CREDENTIAL_USERNAME) != 0)
    return git_credential_username_new(out, user.c_str());
  // libgit2 asks again after a refusal: one offer is enough to know.
  if (++p->attempts > 1) {
    p->refused = "the repository refused the connector's " + c.kind + " credential";
    return GIT_EAUTH;
  }
  if (c.kind == kCredentialBasic && (allowed_types & GIT_CREDENTIAL_USERPASS_PLAINTEXT) != 0)
    return git_credential_userpass_plaintext_new(out, c.username.c_str(), c.secret.c_str());
  if (c.kind == kCredentialSshKey && (allowed_types & GIT_CREDENTIAL_SSH_KEY) != 0)
    return git_credential_ssh_key_memory_new(out, user.c_str(), nullptr, c.secret.c_str(),
                                             c.passphrase.empty() ? nullptr : c.passphrase.c_str());
  p->refused = "the repository asks for another kind of credential than the connector's " + c.kind;
  return GIT_EAUTH;
}

// SSH: the host key must be the one the settings name (libgit2 1.5 reads no
// known_hosts). TLS: libgit2's own verification stands.
int OnCertificate(git_cert* cert, int valid, const char* host, void* payload) {
  auto* p = static_cast<AuthPayload*>(payload);
  (void)valid;
  if (cert->cert_type != GIT_CERT_HOSTKEY_LIBSSH2) return GIT_PASSTHROUGH;
  const auto* key = reinterpret_cast<const git_cert_hostkey*>(cert);
  const std::string expected = p->auth->ssh_host_key.value_or("");
  std::string shown;
  if ((key->type & GIT_CERT_SSH_SHA256) != 0) {
    shown = "SHA256:" + Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(key->hash_sha256), 32));
    for (char& ch : shown) ch = ch == '-' ? '+' : ch == '_' ? '/' : ch;  // ssh-keygen's alphabet
  }
  std::string want = expected;
  while (!want.empty() && want.back() == '=') want.pop_back();
  if (!shown.empty() && shown == want) return 0;
  p->refused = std::string("the host key of ") + (host != nullptr ? host : "the server") + " is " +
               (shown.empty() ? "unknown" : shown) + ", not the settings' sshHostKey";
  return GIT_ECERTIFICATE;
}

}  // namespace

void InitLibgit2() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

GitMirror::GitMirror(git_repository* repo, std::string url) : repo_(repo), url_(std::move(url)) {}
GitMirror::GitMirror(GitMirror&& o) noexcept : repo_(o.repo_), url_(std::move(o.url_)) { o.repo_ = nullptr; }
GitMirror& GitMirror::operator=(GitMirror&& o) noexcept {
  std::swap(repo_, o.repo_);
  std::swap(url_, o.url_);
  return *this;
}
GitMirror::~GitMirror() {
  if (repo_ != nullptr) git_repository_free(repo_);
}

Result<GitMirror> GitMirror::Open(const std::string& dir, const std::string& url) {
  InitLibgit2();
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path marker = fs::path(dir) / "credence-url";
  if (fs::exists(dir, ec)) {
    std::ifstream in(marker);
    std::string known;
    std::getline(in, known);
    if (known != url) fs::remove_all(dir, ec);
  }
  fs::create_directories(dir, ec);
  if (ec) return Error::Internal("cannot create " + dir + ": " + ec.message());
  git_repository* repo = nullptr;
  if (git_repository_open_bare(&repo, dir.c_str()) != 0) {
    if (git_repository_init(&repo, dir.c_str(), 1) != 0)
      return Error::Internal(LastError("cannot create a repository in " + dir));
    std::ofstream(marker) << url << "\n";
  }
  return GitMirror(repo, url);
}

namespace {

// The local path of a repository URL that names one (a path or file://).
std::optional<std::string> LocalPath(const std::string& url) {
  if (!url.empty() && url.front() == '/') return url;
  if (url.rfind("file://", 0) == 0) return url.substr(7);
  return std::nullopt;
}

}  // namespace

Result<std::string> GitMirror::Fetch(const std::string& branch, const GitAuth& auth) {
  git_reference* existing = nullptr;
  const bool fetched_before = git_reference_lookup(&existing, repo_, RefName(branch).c_str()) == 0;
  Reference existing_ref(existing);
  if (auto path = LocalPath(url_); path && fetched_before) return CopyLocal(*path, branch);
  // libgit2 makes the requests itself: one span around the fetch, with no
  // traceparent (it takes no extra headers per request here).
  telemetry::Span span("git fetch", telemetry::SpanKind::kClient);
  if (span.recording()) {
    const telemetry::HostPort server = telemetry::HostPortOf(url_);
    if (!server.host.empty()) span.SetString("server.address", server.host).SetInt("server.port", server.port);
  }

  git_remote* r = nullptr;
  if (git_remote_create_anonymous(&r, repo_, url_.c_str()) != 0)
    return Error::InvalidArgument("repository_unreachable", LastError("cannot use the repository URL " + url_));
  Remote remote(r);
  const std::string spec = "+refs/heads/" + branch + ":" + RefName(branch);
  char* specs[] = {const_cast<char*>(spec.c_str())};
  git_strarray refspecs{specs, 1};
  git_fetch_options opts = GIT_FETCH_OPTIONS_INIT;
  opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  AuthPayload payload{&auth, 0, ""};
  opts.callbacks.credentials = OnCredentials;
  opts.callbacks.certificate_check = OnCertificate;
  opts.callbacks.payload = &payload;
  std::string bearer;
  char* headers[1] = {nullptr};
  if (auth.credential) {
    // A credential goes to the configured server only: a redirect could
    // hand a bearer header, or a challenge answered, to another host.
    opts.follow_redirects = GIT_REMOTE_REDIRECT_NONE;
    if (auth.credential->kind == kCredentialBearer) {
      bearer = "Authorization: Bearer " + auth.credential->secret;
      headers[0] = bearer.data();
      opts.custom_headers = {headers, 1};
    }
  }
  // The tracking ref stays, so the negotiation tells the remote what the
  // mirror has and only new objects come.
  const int fetched = git_remote_fetch(remote.get(), &refspecs, &opts, nullptr);
  std::fill(bearer.begin(), bearer.end(), '\0');
  if (fetched != 0) {
    span.SetError("the fetch failed");
    if (!payload.refused.empty())
      return Error::InvalidArgument("repository_unreachable", "cannot fetch from " + url_ + ": " + payload.refused);
    return Error::InvalidArgument("repository_unreachable", LastError("cannot fetch from " + url_));
  }
  // A branch gone from the remote must not be answered by the last fetch.
  const git_remote_head** heads = nullptr;
  size_t count = 0;
  bool advertised = false;
  if (git_remote_ls(&heads, &count, remote.get()) == 0)
    for (size_t i = 0; i < count; ++i)
      if (std::string(heads[i]->name) == "refs/heads/" + branch) advertised = true;
  git_reference* ref = nullptr;
  if (!advertised || git_reference_lookup(&ref, repo_, RefName(branch).c_str()) != 0)
    return Error::InvalidArgument("branch_not_found", "the repository " + url_ + " has no branch '" + branch + "'");
  Reference owned(ref);
  const git_oid* oid = git_reference_target(ref);
  if (oid == nullptr) return Error::Internal("the branch reference is symbolic");
  return Hex(oid);
}

// libgit2's local transport packs every object reachable from the wanted
// commit (it leaves out only what the source's own refs point at), so a
// fetch from a local repository would cost the whole repository each time.
// For local sources fetched before, the pack is built here instead, with
// the mirror's commit hidden: unchanged subtrees are left out, and the cost
// follows the change.
Result<std::string> GitMirror::CopyLocal(const std::string& path, const std::string& branch) {
  git_repository* s = nullptr;
  if (git_repository_open_ext(&s, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    return Error::InvalidArgument("repository_unreachable", LastError("cannot fetch from " + url_));
  std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>> source(s);
  git_reference* ref = nullptr;
  if (git_reference_lookup(&ref, s, ("refs/heads/" + branch).c_str()) != 0)
    return Error::InvalidArgument("branch_not_found", "the repository " + url_ + " has no branch '" + branch + "'");
  Reference tip_ref(ref);
  git_reference* resolved = nullptr;
  if (git_reference_resolve(&resolved, ref) != 0) return Error::Internal(LastError("branch"));
  Reference resolved_ref(resolved);
  const git_oid tip = *git_reference_target(resolved);

  git_odb* dst_odb = nullptr;
  if (git_repository_odb(&dst_odb, repo_) != 0) return Error::Internal(LastError("object database"));
  std::unique_ptr<git_odb, Deleter<git_odb, git_odb_free>> dst(dst_odb);
  if (!git_odb_exists(dst_odb, &tip)) {
    git_revwalk* w = nullptr;
    if (git_revwalk_new(&w, s) != 0) return Error::Internal(LastError("revwalk"));
    std::unique_ptr<git_revwalk, Deleter<git_revwalk, git_revwalk_free>> walk(w);
    if (git_revwalk_push(w, &tip) != 0) return Error::Internal(LastError("revwalk"));
    // Hide what the mirror has: its tracking ref's commit, when the source
    // has it (after a force push it may not; then more is packed).
    git_reference* mine = nullptr;
    if (git_reference_lookup(&mine, repo_, RefName(branch).c_str()) == 0) {
      Reference mine_ref(mine);
      git_commit* have = nullptr;
      if (const git_oid* id = git_reference_target(mine); id != nullptr && git_commit_lookup(&have, s, id) == 0) {
        git_commit_free(have);
        git_revwalk_hide(w, id);
      }
    }
    git_packbuilder* p = nullptr;
    if (git_packbuilder_new(&p, s) != 0) return Error::Internal(LastError("pack"));
    std::unique_ptr<git_packbuilder, Deleter<git_packbuilder, git_packbuilder_free>> pack(p);
    git_packbuilder_set_threads(p, 1);
    if (git_packbuilder_insert_walk(p, w) != 0) return Error::Internal(LastError("pack"));
    const std::string pack_dir = std::string(git_repository_path(repo_)) + "objects/pack";
    if (git_packbuilder_object_count(p) > 0 && git_packbuilder_write(p, pack_dir.c_str(), 0, nullptr, nullptr) != 0)
      return Error::Internal(LastError("pack"));
    git_odb_refresh(dst_odb);
  }
  git_reference* updated = nullptr;
  if (git_reference_create(&updated, repo_, RefName(branch).c_str(), &tip, 1, "credence fetch") != 0)
    return Error::Internal(LastError("ref"));
  git_reference_free(updated);
  return Hex(&tip);
}

bool GitMirror::HasCommit(const std::string& commit_id) const {
  git_oid oid;
  if (git_oid_fromstr(&oid, commit_id.c_str()) != 0) return false;
  git_commit* c = nullptr;
  if (git_commit_lookup(&c, repo_, &oid) != 0) return false;
  git_commit_free(c);
  return true;
}

TimeMs GitMirror::CommitTime(const std::string& commit_id) const {
  git_oid oid;
  if (git_oid_fromstr(&oid, commit_id.c_str()) != 0) return 0;
  git_commit* c = nullptr;
  if (git_commit_lookup(&c, repo_, &oid) != 0) return 0;
  Commit commit(c);
  return static_cast<TimeMs>(git_commit_time(commit.get())) * 1000;
}

Result<std::vector<GitChange>> GitMirror::List(const std::string& target, bool (*keep)(std::string_view)) const {
  auto tree = TreeOf(repo_, target);
  if (!tree) return tree.error();
  struct Walk {
    bool (*keep)(std::string_view);
    std::vector<GitChange> out;
  } walk{keep, {}};
  auto cb = [](const char* root, const git_tree_entry* entry, void* payload) -> int {
    auto* w = static_cast<Walk*>(payload);
    if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) return 0;
    if (git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK) return 0;
    std::string path = std::string(root) + git_tree_entry_name(entry);
    if (w->keep(path)) w->out.push_back({std::move(path), false, Hex(git_tree_entry_id(entry))});
    return 0;
  };
  if (git_tree_walk(tree->get(), GIT_TREEWALK_PRE, cb, &walk) != 0) return Error::Internal(LastError("tree walk"));
  std::sort(walk.out.begin(), walk.out.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return std::move(walk.out);
}

Result<std::vector<GitChange>> GitMirror::Diff(const std::string& base, const std::string& target,
                                               bool (*keep)(std::string_view)) const {
  auto old_tree = TreeOf(repo_, base);
  if (!old_tree) return old_tree.error();
  auto new_tree = TreeOf(repo_, target);
  if (!new_tree) return new_tree.error();
  git_diff* d = nullptr;
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&d, repo_, old_tree->get(), new_tree->get(), &opts) != 0)
    return Error::Internal(LastError("diff"));
  DiffPtr diff(d);
  std::vector<GitChange> out;
  const size_t n = git_diff_num_deltas(d);
  for (size_t i = 0; i < n; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(d, i);
    const bool gone = delta->status == GIT_DELTA_DELETED;
    const git_diff_file& f = gone ? delta->old_file : delta->new_file;
    const std::string path = f.path;
    if (!keep(path)) continue;
    if (!gone && f.mode == GIT_FILEMODE_LINK) continue;
    out.push_back({path, gone, gone ? std::string() : Hex(&f.id)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return out;
}

Result<std::string> GitMirror::ReadBlob(const std::string& blob_id, int64_t max_bytes) const {
  git_oid oid;
  if (git_oid_fromstr(&oid, blob_id.c_str()) != 0) return Error::Internal("bad blob id");
  git_blob* b = nullptr;
  if (git_blob_lookup(&b, repo_, &oid) != 0) return Error::Internal(LastError("cannot read the file"));
  Blob blob(b);
  const auto size = static_cast<int64_t>(git_blob_rawsize(b));
  if (size > max_bytes)
    return Error::InvalidArgument(
        "file_too_large",
        "the file has " + std::to_string(size) + " bytes, more than maxFileBytes (" + std::to_string(max_bytes) + ")");
  return std::string(static_cast<const char*>(git_blob_rawcontent(b)), static_cast<size_t>(size));
}

std::optional<std::string> GitMirror::ReadFile(const std::string& commit_id, const std::string& path,
                                               int64_t max_bytes) const {
  auto tree = TreeOf(repo_, commit_id);
  if (!tree) return std::nullopt;
  git_tree_entry* e = nullptr;
  if (git_tree_entry_bypath(&e, tree->get(), path.c_str()) != 0) return std::nullopt;
  TreeEntry entry(e);
  if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) return std::nullopt;
  auto text = ReadBlob(Hex(git_tree_entry_id(e)), max_bytes);
  if (!text) return std::nullopt;
  return std::move(*text);
}

}  // namespace credence::connectors
