#pragma once
// `credence admin rotate-secrets-key` and `prune-secrets-keys`: the
// connector secrets key file's rotation (docs/connectors.md, "Credentials").
#include <string>
#include <vector>

namespace credence::app {

extern const char* const kRotateSecretsKeyUsage;
int RotateSecretsKey(const std::vector<std::string>& args);
int PruneSecretsKeys(const std::vector<std::string>& args);

}  // namespace credence::app
