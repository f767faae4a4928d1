#include "app/verify_receipt.h"

#include <boost/json/parse.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

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
    "  KEY: the log's verifier key, <origin>+<key id>+<base64> (GET /api/trust/log), or a file of\n"
    "  them, one a line. Without --key the receipt's own verifierKey is used, which shows that the\n"
    "  receipt is consistent, not who signed it.\n"
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

// A --key value: a verifier key, or a file of them (one a line).
std::optional<std::string> AddKeys(const std::string& value, std::vector<integrity::note::VerifierKey>& keys) {
  std::vector<std::string> texts;
  if (auto parsed = integrity::note::ParseVerifierKey(Trim(value))) {
    keys.push_back(*parsed);
    return std::nullopt;
  } else if (auto file = ReadFile(value); file && value != "-") {
    std::istringstream lines(*file);
    for (std::string line; std::getline(lines, line);)
      if (!Trim(line).empty()) texts.push_back(Trim(line));
    if (texts.empty()) return "--key: " + value + " holds no key";
  } else {
    return "--key: '" + value + "' is neither a verifier key (" + parsed.error().detail + ") nor a readable file";
  }
  for (const auto& t : texts) {
    auto parsed = integrity::note::ParseVerifierKey(t);
    if (!parsed) return "--key: " + value + ": '" + t + "': " + parsed.error().detail;
    keys.push_back(*parsed);
  }
  return std::nullopt;
}

}  // namespace

int VerifyReceiptCommand(const std::vector<std::string>& args) {
  std::optional<std::string> receipt_path, older_path;
  std::vector<integrity::note::VerifierKey> keys;
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
        if (auto problem = AddKeys(value, keys)) return Usage(*problem);
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
