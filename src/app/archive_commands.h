#pragma once
// `credence admin archive` and `credence admin verify-archive`
// (docs/retention.md).
#include <string>
#include <vector>

namespace credence::app {

extern const char* const kArchiveUsage;
extern const char* const kVerifyArchiveUsage;

int ArchiveNow(const std::vector<std::string>& args);
int VerifyArchiveFiles(const std::vector<std::string>& args);

}  // namespace credence::app
