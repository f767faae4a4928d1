// C2SP signed-note and tlog-checkpoint against Go's published test data
// (golang.org/x/mod/sumdb/note note_test.go: the PeterNeumann and EnochRoot
// keys, the signed Peter Neumann quote), then checkpoints signed with the
// chain-signing key: they verify, and no altered byte does.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "integrity/checkpoint.h"
#include "integrity/encoding.h"
#include "integrity/note.h"
#include "integrity/signing_key.h"

namespace credence::integrity {
namespace {

constexpr char kPeterKey[] = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
constexpr char kPeterPrivate[] = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
constexpr char kEnochKey[] = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
constexpr char kText[] =
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n";
constexpr char kPeterSig[] =
    "\xE2\x80\x94 PeterNeumann "
    "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
constexpr char kEnochSig[] =
    "\xE2\x80\x94 EnochRoot "
    "rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

// The PeterNeumann signer from its private key string: base64(0x01 || seed).
SigningKey PeterSigner() {
  // PRIVATE+KEY+<name>+<id>+<base64>: the key is after the fourth '+' (base64 holds '+' too).
  const std::string text = kPeterPrivate;
  size_t at = 0;
  for (int i = 0; i < 4; ++i) at = text.find('+', at) + 1;
  const auto typed = Base64DecodeStrict(text.substr(at));
  if (!typed || typed->size() != 33 || (*typed)[0] != '\x01')
    throw std::runtime_error("the private key does not decode");
  auto key = SigningKey::FromSeed(typed->substr(1));
  EXPECT_TRUE(key.ok());
  return std::move(*key);
}

TEST(SignedNote, ParsesGosVerifierKeysAndRefusesEveryMangling) {
  auto peter = note::ParseVerifierKey(kPeterKey);
  ASSERT_TRUE(peter.ok()) << peter.error().detail;
  EXPECT_EQ(peter->name, "PeterNeumann");
  EXPECT_EQ(peter->id, 0xc74f20a3u);
  EXPECT_EQ(peter->public_key.size(), 32u);
  EXPECT_EQ(note::Encode(*peter), kPeterKey);
  EXPECT_EQ(note::KeyId("PeterNeumann", peter->public_key), 0xc74f20a3u);
  // Every proper substring, and every byte plus one.
  const std::string key = kPeterKey;
  for (size_t i = 0; i <= key.size(); ++i)
    for (size_t j = i + 1; j <= key.size(); ++j)
      if (i != 0 || j != key.size()) {
        EXPECT_FALSE(note::ParseVerifierKey(key.substr(i, j - i)).ok()) << key.substr(i, j - i);
      }
  for (size_t i = 0; i < key.size(); ++i) {
    std::string mangled = key;
    ++mangled[i];
    EXPECT_FALSE(note::ParseVerifierKey(mangled).ok()) << mangled;
  }
  // A key of the wrong length and an unknown algorithm, each with its id adjusted.
  auto long_key = note::ParseVerifierKey("PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==");
  ASSERT_FALSE(long_key.ok());
  EXPECT_EQ(long_key.error().code, "invalid_verifier_key");
  auto other_alg = note::ParseVerifierKey("PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW");
  ASSERT_FALSE(other_alg.ok());
  EXPECT_NE(other_alg.error().detail.find("Ed25519"), std::string::npos) << other_alg.error().detail;
  EXPECT_TRUE(note::ParseVerifierKey(kEnochKey).ok());
}

TEST(SignedNote, SignsGosVectorByteForByte) {
  const SigningKey signer = PeterSigner();
  auto peter = note::ParseVerifierKey(kPeterKey);
  ASSERT_TRUE(peter.ok());
  EXPECT_EQ(signer.raw_public_key(), peter->public_key);
  EXPECT_EQ(note::Encode(note::VerifierKeyOf("PeterNeumann", signer.raw_public_key())), kPeterKey);
  EXPECT_EQ(note::Sign(kText, "PeterNeumann", signer), std::string(kText) + "\n" + kPeterSig);
  EXPECT_THROW(note::Sign("abc", "PeterNeumann", signer), std::invalid_argument);
  EXPECT_THROW(note::Sign(kText, "bad name", signer), std::invalid_argument);
}

TEST(SignedNote, OpensGosNotesAndChecksTheirSignatures) {
  auto peter = note::ParseVerifierKey(kPeterKey);
  auto enoch = note::ParseVerifierKey(kEnochKey);
  ASSERT_TRUE(peter.ok() && enoch.ok());
  auto n = note::Parse(std::string(kText) + "\n" + kPeterSig + kEnochSig);
  ASSERT_TRUE(n.ok()) << n.error().detail;
  EXPECT_EQ(n->text, kText);
  ASSERT_EQ(n->signatures.size(), 2u);
  EXPECT_EQ(n->signatures[0].name, "PeterNeumann");
  EXPECT_EQ(n->signatures[0].id, 0xc74f20a3u);
  EXPECT_EQ(n->signatures[1].id, 0xaf0cfe78u);
  EXPECT_EQ(note::VerificationProblem(*n, *peter), "");
  EXPECT_EQ(note::VerificationProblem(*n, *enoch), "");
  // Only Enoch's signature: none by Peter.
  auto only_enoch = note::Parse(std::string(kText) + "\n" + kEnochSig);
  ASSERT_TRUE(only_enoch.ok());
  EXPECT_NE(note::VerificationProblem(*only_enoch, *peter).find("no signature by a key named PeterNeumann"),
            std::string::npos);
  // An altered signature (Go's: "ABCD" inside it), and an altered text.
  const std::string sig = kPeterSig;
  auto bad_sig = note::Parse(std::string(kText) + "\n" + sig.substr(0, 60) + "ABCD" + sig.substr(60));
  ASSERT_TRUE(bad_sig.ok()) << bad_sig.error().detail;
  EXPECT_NE(note::VerificationProblem(*bad_sig, *peter).find("does not verify"), std::string::npos);
  std::string altered_text = kText;
  altered_text[3] = 'X';
  auto bad_text = note::Parse(altered_text + "\n" + kPeterSig);
  ASSERT_TRUE(bad_text.ok());
  EXPECT_NE(note::VerificationProblem(*bad_text, *peter).find("does not verify"), std::string::npos);
  // A signature under Peter's name by another key id.
  std::string renamed = std::string(kText) + "\n" + kEnochSig;
  renamed.replace(renamed.find("EnochRoot"), 9, "PeterNeumann");
  auto misnamed = note::Parse(renamed);
  ASSERT_TRUE(misnamed.ok());
  EXPECT_NE(note::VerificationProblem(*misnamed, *peter).find("not by the key given"), std::string::npos);
}

TEST(SignedNote, RefusesGosMalformedNotes) {
  const std::string text = kText, sig = kPeterSig;
  const std::string bad_name =
      "\xE2\x80\x94 Bad Name "
      "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=";
  for (const std::string& msg : std::vector<std::string>{
           text, text + "\n", text + "\n" + sig.substr(0, sig.size() - 1), "\x01" + text + "\n" + sig,
           "\xff" + text + "\n" + sig, text + "\n" + bad_name, text + "\n" + sig + "Unexpected line.\n"}) {
    auto n = note::Parse(msg);
    ASSERT_FALSE(n.ok()) << msg;
    EXPECT_EQ(n.error().code, "malformed_note");
  }
  std::string many = text + "\n";
  for (int i = 0; i < 101; ++i) many += sig;
  EXPECT_FALSE(note::Parse(many).ok());
  EXPECT_TRUE(note::Parse(many.substr(0, many.size() - sig.size())).ok());
}

TEST(Checkpoint, BodyRoundTripsAndRefusesMalformedLines) {
  Checkpoint c{"example.com/ledger/t-1", 20852163, merkle::Sha256("root"), {}};
  const std::string body = CheckpointBody(c);
  EXPECT_EQ(body, "example.com/ledger/t-1\n20852163\n" + Base64Encode(merkle::Bytes(c.root)) + "\n");
  auto back = ParseCheckpointBody(body);
  ASSERT_TRUE(back.ok()) << back.error().detail;
  EXPECT_EQ(back->origin, c.origin);
  EXPECT_EQ(back->size, c.size);
  EXPECT_EQ(back->root, c.root);
  auto ext = ParseCheckpointBody(body + "an extension\n");
  ASSERT_TRUE(ext.ok());
  EXPECT_EQ(ext->extensions, std::vector<std::string>{"an extension"});
  const std::string root64 = Base64Encode(merkle::Bytes(c.root));
  const std::vector<std::string> bads = {"",
                                         "o\n1\n" + root64,
                                         "\n1\n" + root64 + "\n",
                                         "o\n01\n" + root64 + "\n",
                                         "o\n-1\n" + root64 + "\n",
                                         "o\n1\nAAAA\n",
                                         "o\n1\n" + root64 + "\n\n",
                                         "o\n99999999999999999999\n" + root64 + "\n",
                                         "o\n1\n"};
  for (const std::string& bad : bads) {
    auto p = ParseCheckpointBody(bad);
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.error().code, "malformed_checkpoint");
  }
  // The empty tree: size 0, the root SHA-256 of nothing.
  auto empty = ParseCheckpointBody("o\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n");
  ASSERT_TRUE(empty.ok()) << empty.error().detail;
  EXPECT_EQ(empty->root, merkle::EmptyRoot());
}

// A checkpoint signed with the chain-signing key verifies with the verifier
// key published for its origin; every byte of the signed note changed
// either fails to parse or fails to verify, or no longer says the same.
TEST(Checkpoint, SignedCheckpointsRefuseEveryAlteredByte) {
  const SigningKey key = SigningKey::Generate();
  const std::string origin = "credence.example/ledger/0190a6c2-0000-7000-8000-000000000001";
  const Checkpoint c{origin, 1234, merkle::Sha256("the root"), {}};
  const std::string signed_note = note::Sign(CheckpointBody(c), origin, key);
  const note::VerifierKey vkey = note::VerifierKeyOf(origin, key.raw_public_key());
  auto parsed_key = note::ParseVerifierKey(note::Encode(vkey));
  ASSERT_TRUE(parsed_key.ok());
  auto n = note::Parse(signed_note);
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(note::VerificationProblem(*n, *parsed_key), "");
  for (size_t i = 0; i < signed_note.size(); ++i) {
    for (unsigned char delta : {1, 0x80}) {
      std::string altered = signed_note;
      altered[i] = static_cast<char>(static_cast<unsigned char>(altered[i]) ^ delta);
      auto a = note::Parse(altered);
      if (!a.ok()) continue;
      if (note::VerificationProblem(*a, *parsed_key).empty()) {
        auto body = ParseCheckpointBody(a->text);
        // Only an equivalent note may still verify; none exists here.
        ADD_FAILURE() << "byte " << i << " altered and still verifies: " << altered;
        (void)body;
      }
    }
  }
  // Another key does not verify it.
  const note::VerifierKey other = note::VerifierKeyOf(origin, SigningKey::Generate().raw_public_key());
  EXPECT_FALSE(note::VerificationProblem(*n, other).empty());
}

}  // namespace
}  // namespace credence::integrity
