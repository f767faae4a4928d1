#include "connectors/credential.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "connectors/secret_box.h"
#include "core/ids.h"

namespace credence::connectors {
namespace {

namespace fs = std::filesystem;

class SecretKeyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("credence-secrets-" + NewId());
    path_ = (dir_ / "sub" / "connector-secrets.key").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string path_;
};

TEST_F(SecretKeyFile, CreatedOwnerOnlyAndSealsWithTheContextBound) {
  auto box = SecretBox::LoadOrCreate(path_);
  ASSERT_TRUE(box) << box.error().detail;
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  const std::string sealed = (*box)->Seal("ghp_secret", "tenant-a:connector-1");
  EXPECT_EQ(sealed.find("ghp_secret"), std::string::npos);
  EXPECT_EQ(SecretBox::KeyIdOf(sealed), (*box)->current_key_id());
  EXPECT_NE((*box)->Seal("ghp_secret", "tenant-a:connector-1"), sealed);  // a fresh nonce each time
  auto opened = (*box)->Open(sealed, "tenant-a:connector-1");
  ASSERT_TRUE(opened) << opened.error().detail;
  EXPECT_EQ(*opened, "ghp_secret");
  EXPECT_FALSE((*box)->Open(sealed, "tenant-b:connector-1"));  // moved to another tenant
  std::string tampered = sealed;
  tampered[tampered.size() - 3] = tampered[tampered.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_FALSE((*box)->Open(tampered, "tenant-a:connector-1"));
  EXPECT_FALSE((*box)->Open("garbage", "tenant-a:connector-1"));

  // The same file next start: the same key.
  auto again = SecretBox::LoadOrCreate(path_);
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)->current_key_id(), (*box)->current_key_id());
  EXPECT_EQ(*(*again)->Open(sealed, "tenant-a:connector-1"), "ghp_secret");
  // Another key file opens nothing of it.
  EXPECT_FALSE(SecretBox::Ephemeral()->Open(sealed, "tenant-a:connector-1"));
}

TEST_F(SecretKeyFile, RotationAddsAKeyOldSecretsStillOpenAndPruneDropsUnusedKeys) {
  auto box = SecretBox::LoadOrCreate(path_);
  ASSERT_TRUE(box);
  const std::string old_id = (*box)->current_key_id();
  const std::string sealed_old = (*box)->Seal("old", "ctx");

  auto new_id = SecretBox::AddKey(path_);
  ASSERT_TRUE(new_id) << new_id.error().detail;
  EXPECT_NE(*new_id, old_id);
  auto rotated = SecretBox::LoadOrCreate(path_);
  ASSERT_TRUE(rotated);
  EXPECT_EQ((*rotated)->current_key_id(), *new_id);
  EXPECT_EQ(*(*rotated)->Open(sealed_old, "ctx"), "old");
  const std::string sealed_new = (*rotated)->Seal("new", "ctx");
  // A node started before the rotation reads the file again for a key it lacks.
  EXPECT_EQ(*(*box)->Open(sealed_new, "ctx"), "new");
  EXPECT_EQ((*box)->current_key_id(), old_id);  // it keeps sealing with its own until restarted

  auto removed = SecretBox::Prune(path_, {});
  ASSERT_TRUE(removed);
  EXPECT_EQ(*removed, std::vector<std::string>{old_id});
  auto pruned = SecretBox::LoadOrCreate(path_);
  EXPECT_FALSE((*pruned)->Open(sealed_old, "ctx"));
  EXPECT_EQ(*(*pruned)->Open(sealed_new, "ctx"), "new");
}

TEST_F(SecretKeyFile, AMalformedFileIsRefusedNamingIt) {
  fs::create_directories(fs::path(path_).parent_path());
  std::ofstream(path_) << "# comment\nabc not-base64\n";
  auto box = SecretBox::LoadOrCreate(path_);
  ASSERT_FALSE(box);
  EXPECT_NE(box.error().detail.find(path_), std::string::npos);
  EXPECT_NE(box.error().detail.find("line 2"), std::string::npos);
}

const char kHttps[] = R"({"url":"https://git.example.com/a.git","branch":"main"})";
const char kSsh[] = R"({"url":"git@git.example.com:team/a.git","branch":"main"})";

TEST(ConnectorCredential, KindsByConnectorAndUrl) {
  auto basic = ParseCredential(R"({"kind":"basic","username":"x-access-token","password":"ghp_1"})", "git", kHttps);
  ASSERT_TRUE(basic);
  EXPECT_EQ(basic->secret, "ghp_1");
  EXPECT_EQ(HeaderLineOf(*basic), "Authorization: Basic eC1hY2Nlc3MtdG9rZW46Z2hwXzE=");
  auto key = ParseCredential(R"({"kind":"sshKey","privateKey":"-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n"})",
                             "git", kSsh);
  ASSERT_TRUE(key) << key.error().detail;
  EXPECT_EQ(key->username, "git");
  EXPECT_FALSE(ParseCredential(R"({"kind":"bearer","token":"t"})", "git", kSsh));
  EXPECT_FALSE(ParseCredential(R"({"kind":"bearer","token":"t"})", "git", R"({"url":"/srv/repo","branch":"main"})"));
  EXPECT_FALSE(ParseCredential(R"({"kind":"bearer","token":"t"})", "push", "{}"));
  auto header = ParseCredential(R"({"kind":"header","name":"X-Api-Key","value":"k"})", "web", "{}");
  ASSERT_TRUE(header);
  EXPECT_EQ(HeaderLineOf(*header), "X-Api-Key: k");
  EXPECT_FALSE(ParseCredential(R"({"kind":"header","name":"Proxy-Authorization","value":"k"})", "web", "{}"));
  EXPECT_FALSE(ParseCredential(R"({"kind":"header","name":"X-A","value":"a\nb"})", "web", "{}"));

  // The sealed form holds everything; the info none of the secret.
  auto back = CredentialFromJson(CredentialToJson(*basic));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->secret, "ghp_1");
  EXPECT_EQ(InfoToJson(InfoOf(*basic)).find("ghp_1"), std::string::npos);
  EXPECT_TRUE(CredentialMismatch(InfoOf(*basic), "git", kSsh));
  EXPECT_FALSE(CredentialMismatch(InfoOf(*basic), "git", kHttps));
}

TEST(ConnectorCredential, SshUrls) {
  EXPECT_TRUE(IsSshUrl("git@github.com:org/repo.git"));
  EXPECT_TRUE(IsSshUrl("ssh://git@host:2222/org/repo.git"));
  EXPECT_FALSE(IsSshUrl("/srv/repo"));
  EXPECT_FALSE(IsSshUrl("https://host/repo"));
  EXPECT_FALSE(IsSshUrl("dir/with:colon"));
  EXPECT_EQ(SshHostOf("git@github.com:org/repo.git"), "github.com");
  EXPECT_EQ(SshHostOf("ssh://git@host:2222/org/repo.git"), "host");
  EXPECT_EQ(SshHostOf("ssh://[::1]:2222/repo"), "::1");
  EXPECT_EQ(SshHostOf("ssh://127.0.0.1/repo"), "127.0.0.1");
}

}  // namespace
}  // namespace credence::connectors
