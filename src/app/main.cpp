// credence: the trust-control plane server. `credence serve [flags]`;
// `credence admin ...` for an operator's provisioning (app/admin_command.h).
#include <cstdio>
#include <string>
#include <vector>

#include "app/admin_command.h"
#include "app/application.h"
#include "core/config.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(credence::ConfigUsage().c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::puts("credence 0.1.0");
    return 0;
  }
  if (args[0] == "admin") return credence::app::RunAdminCommand({args.begin() + 1, args.end()});
  if (args[0] != "serve") {
    std::fprintf(stderr, "unknown command '%s'\n\n%s", args[0].c_str(), credence::ConfigUsage().c_str());
    return 2;
  }
  args.erase(args.begin());
  auto config = credence::ParseConfig(args, credence::ProcessEnv);
  if (!config) {
    std::fprintf(stderr, "credence: %s\n\n%s", config.error().detail.c_str(), credence::ConfigUsage().c_str());
    return 2;
  }
  return credence::app::Serve(*config);
}
