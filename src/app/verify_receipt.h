#pragma once
// `credence verify-receipt RECEIPT [--key KEY]... [--checkpoint OLDER]`: a
// decision receipt checked with no server and no database
// (docs/receipts.md; trust/receipt.h does the checking).
#include <string>
#include <vector>

namespace credence::app {

extern const char* const kVerifyReceiptUsage;

// Prints "valid" and what was established, or "invalid: <what failed>";
// returns 0 when valid, 1 when not, 2 for a usage error (the usage on stderr).
int VerifyReceiptCommand(const std::vector<std::string>& args);

}  // namespace credence::app
