#include "app/verify_receipt.h"

#include <boost/json/parse.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include "core/ids.h"
#include "integrity/checkpoint.h"
#include "integrity/note.h"
#include "trust/receipt.h"

namespace credence::app {

const char* const kVerifyReceiptUsage =
    "usage: credence verify-receipt RECEIPT [--key KEY]... [--checkpoint OLDER]\n"
    "  Checks a decision receipt (GET /api/trust/decisions/{id}/receipt) with no server and no\n"
    "  database (docs/receipts.md): the record against its hash, the checkpoint's Ed25519 signature,\n"
    "  the inclusion proof to the checkpoint's root; with --checkpoint, that the log only grew since\n"
    "  a checkpoint you kept (fetch the receipt with ?consistencyFrom=<that checkpoint's size>).\n"
    "  RECEIPT: a file, or - for standard input.\n"
    "  KEY: the log's verifier key, <origin>+<key id>+<base64> (GET /api/trust/log), the raw\n"
    "  Ed25519 public key (publicKey of /.well-known/credence-chain-keys), or a file of them, one a\n"
    "  line. Without --key the receipt's own verifierKey is used, which shows that the receipt is\n"
    "  consistent, not who signed it.\n"
    "  OLDER: a file holding a signed checkpoint (or the JSON GET /api/trust/log/checkpoint answers).\n"
    "  Prints \"valid\" and what was checked, or \"invalid: \" and what failed; exits 0 when valid, 1\n"
    "  when not, 2 for a usage error.\n";

namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "credence verify-receipt: %s\n\n%s", message.c_str(), kVerifyReceiptUsage);
  return 2;
}

std::optional<std::string> ReadFile(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t start = 0;
  while (start < s.size() && s[start] == ' ') ++start;
  return s.substr(start);
}

// The keys given: verifier keys (named), and raw Ed25519 public keys (the
// deployment's key as /.well-known/credence-chain-keys lists it), which
// verify a checkpoint under whatever origin it names.
struct GivenKeys {
  std::vector<integrity::note::VerifierKey> named;
  std::vector<std::string> raw;
};

// A raw 32-byte key in base64url (as listed) or base64.
std::optional<std::string> RawKey(const std::string& text) {
  for (bool url : {true, false})
    if (auto raw = Base64Decode(text, url); raw && raw->size() == 32) return raw;
  return std::nullopt;
}

std::optional<std::string> AddKey(const std::string& text, GivenKeys& keys) {
  auto parsed = integrity::note::ParseVerifierKey(text);
  if (parsed) {
    keys.named.push_back(*parsed);
    return std::nullopt;
  }
  if (auto raw = RawKey(text)) {
    keys.raw.push_back(*raw);
    return std::nullopt;
  }
  return parsed.error().detail;
}

// A --key value: a key, or a file of them (one a line).
std::optional<std::string> AddKeys(const std::string& value, GivenKeys& keys) {
  const auto problem = AddKey(Trim(value), keys);
  if (!problem) return std::nullopt;
  auto file = value == "-" ? std::nullopt : ReadFile(value);
  if (!file) return "--key: '" + value + "' is neither a key (" + *problem + ") nor a readable file";
  std::istringstream lines(*file);
  bool any = false;
  for (std::string line; std::getline(lines, line);) {
    if (Trim(line).empty()) continue;
    any = true;
    if (auto bad = AddKey(Trim(line), keys)) return "--key: " + value + ": '" + Trim(line) + "': " + *bad;
  }
  if (!any) return "--key: " + value + " holds no key";
  return std::nullopt;
}

// The origin a signed checkpoint names ("" when it names none).
std::string OriginOf(const std::string& signed_note) {
  auto note = integrity::note::Parse(signed_note);
  if (!note) return "";
  auto body = integrity::ParseCheckpointBody(note->text);
  return body ? body->origin : "";
}

}  // namespace

int VerifyReceiptCommand(const std::vector<std::string>& args) {
  std::optional<std::string> receipt_path, older_path;
  GivenKeys given;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kVerifyReceiptUsage, stdout);
      return 0;
    }
    if (arg.rfind("--", 0) == 0) {
      std::string value;
      if (const auto eq = arg.find('='); eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      } else {
        if (i + 1 >= args.size()) return Usage(arg + " needs a value");
        value = args[++i];
      }
      if (arg == "--key") {
        if (auto problem = AddKeys(value, given)) return Usage(*problem);
      } else if (arg == "--checkpoint") {
        if (older_path) return Usage("--checkpoint is given twice");
        older_path = value;
      } else {
        return Usage("unknown flag " + arg);
      }
      continue;
    }
    if (receipt_path) return Usage("unexpected argument '" + arg + "'");
    receipt_path = arg;
  }
  if (!receipt_path) return Usage("name the receipt file (or - for standard input)");
  const auto text = ReadFile(*receipt_path);
  if (!text) return Usage("cannot read '" + *receipt_path + "'");
  std::optional<std::string> older;
  if (older_path) {
    auto file = ReadFile(*older_path);
    if (!file) return Usage("--checkpoint: cannot read '" + *older_path + "'");
    older = *file;
    // The JSON of a checkpoint endpoint: its signed note.
    boost::system::error_code ec;
    auto doc = boost::json::parse(*file, ec);
    if (!ec && doc.is_object()) {
      const auto* note = doc.as_object().if_contains("checkpoint");
      if (note != nullptr && note->is_object()) note = note->as_object().if_contains("checkpoint");
      if (note == nullptr || !note->is_string())
        return Usage("--checkpoint: '" + *older_path + "' is JSON without a signed checkpoint in \"checkpoint\"");
      older = std::string(note->as_string());
    }
  }

  auto receipt = trust::ParseReceipt(*text);
  if (!receipt) {
    std::printf("invalid: %s\n", receipt.error().detail.c_str());
    return 1;
  }
  // A raw key verifies under the origin the checkpoint names; the checks
  // that follow still hold that origin to the record's tenant.
  std::vector<integrity::note::VerifierKey> keys = given.named;
  if (const std::string origin = OriginOf(receipt->checkpoint);
      !origin.empty() && integrity::note::ValidKeyName(origin))
    for (const auto& raw : given.raw) keys.push_back(integrity::note::VerifierKeyOf(origin, raw));
  const trust::ReceiptCheck c = trust::VerifyReceipt(*receipt, keys, older);
  if (!c.ok) {
    std::printf("invalid: %s\n", c.problem.c_str());
    return 1;
  }
  std::printf("valid\n");
  std::printf("  decision   %s\n", c.decision_id.c_str());
  std::printf("  record     %lld of tenant %s\n", static_cast<long long>(c.sequence), c.tenant_id.c_str());
  std::printf("  leaf       %llu of %llu in log %s\n", static_cast<unsigned long long>(c.leaf_index),
              static_cast<unsigned long long>(c.tree_size), c.origin.c_str());
  std::printf(
      "  signed by  %s%s\n", c.key.c_str(),
      c.key_from_receipt ? " (the receipt's own key: give --key with the key you hold to check who signed)" : "");
  if (c.older_size)
    std::printf("  consistent with the older checkpoint of tree size %llu\n",
                static_cast<unsigned long long>(*c.older_size));
  return 0;
}

}  // namespace credence::app
