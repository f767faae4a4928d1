// credence: the trust-control plane server. `credence serve [flags]`;
// `credence admin ...` for an operator's provisioning (app/admin_command.h);
// `credence verify-receipt RECEIPT ...` for an auditor, offline (app/verify_receipt.h);
// `credence check-config [--require NAME]... [flags]` to check settings
// without starting (docs/packaging.md).
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "app/admin_command.h"
#include "app/application.h"
#include "app/verify_receipt.h"
#include "core/config.h"
#include "telemetry/tracing.h"

namespace {

// Prints a settings error; the usage only when a flag was at fault (a
// configuration file's error names its file, line and name).
void PrintConfigError(const credence::Error& error) {
  std::fprintf(stderr, "credence: %s\n", error.detail.c_str());
  if (error.code != "invalid_config_file") std::fprintf(stderr, "\n%s", credence::ConfigUsage().c_str());
}

// Reads the settings exactly as `serve` would (flags, CREDENCE_* variables,
// the --config file) and starts nothing; each `--require NAME` must be set
// by one of them. Prints where each setting came from (never a value: some
// are secrets). The service unit runs it before `serve`, so that an
// unconfigured installation fails to start with a message (docs/packaging.md).
int CheckConfig(const std::vector<std::string>& args) {
  std::vector<std::string> required;
  std::vector<std::string> serve_args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--require") {
      if (i + 1 >= args.size()) {
        std::fputs("credence check-config: --require needs a setting's name\n", stderr);
        return 2;
      }
      required.push_back(args[++i]);
    } else if (args[i].rfind("--require=", 0) == 0) {
      required.push_back(args[i].substr(10));
    } else {
      serve_args.push_back(args[i]);
    }
  }
  auto config = credence::ParseConfig(serve_args, credence::ProcessEnv);
  if (!config) {
    PrintConfigError(config.error());
    return 2;
  }
  if (auto tracing = credence::telemetry::ReadTracingSettings(credence::ProcessEnv); !tracing) {
    std::fprintf(stderr, "credence: %s (docs/tracing.md)\n", tracing.error().detail.c_str());
    return 2;
  }
  for (const auto& name : required) {
    if (!credence::IsFlagName(name) || name == "config") {
      std::fprintf(stderr, "credence check-config: --require: '%s' is not a setting\n", name.c_str());
      return 2;
    }
    if (config->origins.count(name) != 0) continue;
    std::string env = "CREDENCE_";
    for (char c : name) env.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    std::fprintf(stderr, "credence: %s is required and not set: set it in %s (or as %s or --%s)\n", name.c_str(),
                 config->config_file.empty() ? "the --config file" : config->config_file.c_str(), env.c_str(),
                 name.c_str());
    return 2;
  }
  for (const auto& [name, origin] : config->origins) std::printf("%s\t%s\n", name.c_str(), origin.c_str());
  std::printf("configuration ok%s%s\n", config->config_file.empty() ? "" : ": ", config->config_file.c_str());
  return 0;
}

}  // namespace

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
  if (args[0] == "check-config") return CheckConfig({args.begin() + 1, args.end()});
  if (args[0] == "verify-receipt") return credence::app::VerifyReceiptCommand({args.begin() + 1, args.end()});
  if (args[0] != "serve") {
    std::fprintf(stderr, "unknown command '%s'\n\n%s", args[0].c_str(), credence::ConfigUsage().c_str());
    return 2;
  }
  args.erase(args.begin());
  auto config = credence::ParseConfig(args, credence::ProcessEnv);
  if (!config) {
    PrintConfigError(config.error());
    return 2;
  }
  // Tracing (OTEL_* variables, docs/tracing.md) lives as long as the server:
  // its destructor, after Serve, sends the spans still queued.
  auto tracing = credence::telemetry::Tracing::Start(credence::ProcessEnv, "0.1.0");
  if (!tracing) {
    std::fprintf(stderr, "credence: %s (docs/tracing.md)\n", tracing.error().detail.c_str());
    return 2;
  }
  return credence::app::Serve(*config);
}
