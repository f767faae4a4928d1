#include "core/config.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace credence {
namespace {

using Env = std::map<std::string, std::string>;

EnvLookup FakeEnv(Env values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

Result<Config> Parse(std::vector<std::string> args, Env env = {}) { return ParseConfig(args, FakeEnv(std::move(env))); }

// Asserts that parsing fails and that the error names `flag`.
void ExpectFlagError(std::vector<std::string> args, const std::string& flag, Env env = {}) {
  auto config = Parse(args, std::move(env));
  ASSERT_FALSE(config.ok()) << "expected an error for --" << flag;
  EXPECT_EQ(config.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(config.error().code, "invalid_flag");
  EXPECT_NE(config.error().detail.find("--" + flag), std::string::npos) << config.error().detail;
}

TEST(ParseConfig, NoFlagsGivesDocumentedDefaults) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->listen_host, "127.0.0.1");
  EXPECT_EQ(config->listen_port, 8080);
  EXPECT_EQ(config->data_dir, "./data");
  EXPECT_EQ(config->database_url, "");
  EXPECT_FALSE(config->dev);
  EXPECT_EQ(config->threads, 0);
  EXPECT_EQ(config->db_pool_size, 0);
  EXPECT_EQ(config->max_body_bytes, 1u << 20);
  EXPECT_EQ(config->max_header_bytes, 16u << 10);
  EXPECT_EQ(config->read_timeout_ms, 10'000);
  EXPECT_EQ(config->idle_timeout_ms, 60'000);
  EXPECT_EQ(config->shutdown_timeout_ms, 10'000);
  EXPECT_EQ(config->app_key_max_days, 365);
  EXPECT_EQ(config->sqlite_wal_restart_mb, 4096);
}

TEST(ParseConfig, DefaultDatabaseIsSqliteInsideDataDir) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->EffectiveDatabaseUrl(), "sqlite:./data/credence.db");

  auto moved = Parse({"--data-dir", "/var/lib/credence"});
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->EffectiveDatabaseUrl(), "sqlite:/var/lib/credence/credence.db");
}

TEST(ParseConfig, ExplicitDatabaseWinsOverDataDir) {
  auto config = Parse({"--data-dir", "/srv", "--database", "postgresql://db/credence"});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->EffectiveDatabaseUrl(), "postgresql://db/credence");
}

TEST(ParseConfig, EffectiveThreadsIsPositive) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_GT(config->EffectiveThreads(), 0);
  auto fixed = Parse({"--threads", "3"});
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->EffectiveThreads(), 3);
}

// Every flag, spelled both ways, lands in the same field.
struct FlagCase {
  std::string flag;
  std::string value;
  std::function<void(const Config&)> check;
};

std::vector<FlagCase> AllFlags() {
  return {
      {"listen", "0.0.0.0:9090",
       [](const Config& c) {
         EXPECT_EQ(c.listen_host, "0.0.0.0");
         EXPECT_EQ(c.listen_port, 9090);
       }},
      {"database", "postgresql://user@db:5432/credence",
       [](const Config& c) { EXPECT_EQ(c.database_url, "postgresql://user@db:5432/credence"); }},
      {"data-dir", "/tmp/credence-data", [](const Config& c) { EXPECT_EQ(c.data_dir, "/tmp/credence-data"); }},
      {"dev", "true", [](const Config& c) { EXPECT_TRUE(c.dev); }},
      {"threads", "12", [](const Config& c) { EXPECT_EQ(c.threads, 12); }},
      {"db-pool-size", "20", [](const Config& c) { EXPECT_EQ(c.db_pool_size, 20); }},
      {"max-body-bytes", "2048", [](const Config& c) { EXPECT_EQ(c.max_body_bytes, 2048u); }},
      {"max-header-bytes", "4096", [](const Config& c) { EXPECT_EQ(c.max_header_bytes, 4096u); }},
      {"read-timeout-ms", "1500", [](const Config& c) { EXPECT_EQ(c.read_timeout_ms, 1500); }},
      {"idle-timeout-ms", "2500", [](const Config& c) { EXPECT_EQ(c.idle_timeout_ms, 2500); }},
      {"shutdown-timeout-ms", "0", [](const Config& c) { EXPECT_EQ(c.shutdown_timeout_ms, 0); }},
      {"app-key-max-days", "90", [](const Config& c) { EXPECT_EQ(c.app_key_max_days, 90); }},
      {"sqlite-wal-restart-mb", "256", [](const Config& c) { EXPECT_EQ(c.sqlite_wal_restart_mb, 256); }},
  };
}

std::string EnvNameOf(const std::string& flag) {
  std::string out = "CREDENCE_";
  for (char c : flag) out.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
  return out;
}

TEST(ParseConfig, EveryValuedFlagAcceptsSeparateValue) {
  for (const auto& f : AllFlags()) {
    if (f.flag == "dev") continue;  // boolean: covered by DevWithoutValueEnablesDevelopmentMode
    SCOPED_TRACE("--" + f.flag + " " + f.value);
    auto config = Parse({"--" + f.flag, f.value});
    ASSERT_TRUE(config.ok()) << config.error().detail;
    f.check(*config);
  }
}

TEST(ParseConfig, EveryFlagAcceptsEqualsValue) {
  for (const auto& f : AllFlags()) {
    SCOPED_TRACE("--" + f.flag + "=" + f.value);
    auto config = Parse({"--" + f.flag + "=" + f.value});
    ASSERT_TRUE(config.ok()) << config.error().detail;
    f.check(*config);
  }
}

TEST(ParseConfig, EveryFlagIsReadFromItsEnvironmentVariable) {
  for (const auto& f : AllFlags()) {
    SCOPED_TRACE(EnvNameOf(f.flag) + "=" + f.value);
    auto config = Parse({}, {{EnvNameOf(f.flag), f.value}});
    ASSERT_TRUE(config.ok()) << config.error().detail;
    f.check(*config);
  }
}

TEST(ParseConfig, EnvironmentNamesUseUpperSnakeCase) {
  auto config = Parse({}, {{"CREDENCE_DATA_DIR", "/env/data"},
                           {"CREDENCE_DB_POOL_SIZE", "7"},
                           {"CREDENCE_SHUTDOWN_TIMEOUT_MS", "123"}});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->data_dir, "/env/data");
  EXPECT_EQ(config->db_pool_size, 7);
  EXPECT_EQ(config->shutdown_timeout_ms, 123);
}

TEST(ParseConfig, UnrelatedEnvironmentVariablesAreIgnored) {
  auto config = Parse({}, {{"DATA_DIR", "/nope"}, {"credence_data_dir", "/nope"}, {"CREDENCE_UNKNOWN", "x"}});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->data_dir, "./data");
}

TEST(ParseConfig, FlagsOverrideEnvironment) {
  auto config = Parse({"--listen", "10.0.0.1:7000", "--threads=4", "--dev=false"},
                      {{"CREDENCE_LISTEN", "0.0.0.0:9000"}, {"CREDENCE_THREADS", "8"}, {"CREDENCE_DEV", "true"}});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->listen_host, "10.0.0.1");
  EXPECT_EQ(config->listen_port, 7000);
  EXPECT_EQ(config->threads, 4);
  EXPECT_FALSE(config->dev);
}

TEST(ParseConfig, EnvironmentFillsWhatFlagsLeaveOut) {
  auto config = Parse({"--threads", "4"}, {{"CREDENCE_LISTEN", "0.0.0.0:9000"}});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->listen_port, 9000);
  EXPECT_EQ(config->threads, 4);
}

TEST(ParseConfig, DevWithoutValueEnablesDevelopmentMode) {
  auto config = Parse({"--dev"});
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->dev);
}

TEST(ParseConfig, DevDoesNotTakeASeparateValue) {
  auto config = Parse({"--dev", "false"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().code, "invalid_flag");
  EXPECT_NE(config.error().detail.find("'false'"), std::string::npos) << config.error().detail;
}

TEST(ParseConfig, DevFollowedByAnotherFlagDoesNotConsumeIt) {
  auto config = Parse({"--dev", "--threads", "2"});
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->dev);
  EXPECT_EQ(config->threads, 2);
}

TEST(ParseConfig, DevAcceptsBooleanSpellings) {
  for (const char* yes : {"1", "true", "yes", "on"}) {
    auto config = Parse({std::string("--dev=") + yes});
    ASSERT_TRUE(config.ok()) << yes;
    EXPECT_TRUE(config->dev) << yes;
  }
  for (const char* no : {"0", "false", "no", "off"}) {
    auto config = Parse({std::string("--dev=") + no}, {{"CREDENCE_DEV", "true"}});
    ASSERT_TRUE(config.ok()) << no;
    EXPECT_FALSE(config->dev) << no;
  }
}

TEST(ParseConfig, LaterFlagWins) {
  auto config = Parse({"--threads", "2", "--threads", "5"});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->threads, 5);
}

TEST(ParseConfig, ListenAcceptsBracketedIpv6AndEmptyHost) {
  auto v6 = Parse({"--listen", "[::1]:8443"});
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->listen_host, "::1");
  EXPECT_EQ(v6->listen_port, 8443);

  auto any = Parse({"--listen", ":8081"});
  ASSERT_TRUE(any.ok());
  EXPECT_EQ(any->listen_host, "0.0.0.0");
  EXPECT_EQ(any->listen_port, 8081);
}

TEST(ParseConfig, DatabaseAcceptsSqliteAndBothPostgresSchemes) {
  for (const char* url : {"sqlite:/tmp/x.db", "postgresql://h/db", "postgres://h/db"}) {
    auto config = Parse({"--database", url});
    ASSERT_TRUE(config.ok()) << url;
    EXPECT_EQ(config->EffectiveDatabaseUrl(), url);
  }
}

TEST(ParseConfig, PortOutOfRangeIsAnErrorNamingListen) {
  ExpectFlagError({"--listen", "127.0.0.1:70000"}, "listen");
  ExpectFlagError({"--listen=127.0.0.1:-1"}, "listen");
  ExpectFlagError({"--listen", "127.0.0.1:"}, "listen");
  ExpectFlagError({"--listen", "127.0.0.1:http"}, "listen");
}

TEST(ParseConfig, ListenWithoutPortIsAnError) { ExpectFlagError({"--listen", "nohost"}, "listen"); }

TEST(ParseConfig, ErrorCarriesTheFlagAsAField) {
  auto config = Parse({"--threads", "abc"});
  ASSERT_FALSE(config.ok());
  ASSERT_EQ(config.error().fields.size(), 1u);
  EXPECT_EQ(config.error().fields[0].field, "threads");
  EXPECT_NE(config.error().fields[0].message.find("abc"), std::string::npos);
}

// BUG (src/core/config.cpp, FlagError): the detail is built from `message`
// and `std::move(message)` is passed in the same call; argument evaluation
// order is unspecified and g++ moves first, so the detail is just
// "--threads: ". main.cpp prints only the detail, so `credence serve
// --threads abc` says "credence: --threads: " without the reason. Suggested
// fix: build the detail string into a local before moving `message`.
TEST(ParseConfig, ErrorDetailExplainsWhatIsWrong) {
  auto config = Parse({"--threads", "abc"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().detail, "--threads: expected a non-negative integer, got 'abc'");
}

TEST(ParseConfig, NonNumericIntegerIsAnError) {
  ExpectFlagError({"--threads", "abc"}, "threads");
  ExpectFlagError({"--threads=4x"}, "threads");
  ExpectFlagError({"--threads="}, "threads");
  ExpectFlagError({"--read-timeout-ms", "1.5"}, "read-timeout-ms");
  ExpectFlagError({"--max-body-bytes", "99999999999999999999999"}, "max-body-bytes");
}

TEST(ParseConfig, NegativeIntegersAreErrors) {
  for (const char* flag : {"threads", "db-pool-size", "max-body-bytes", "max-header-bytes", "read-timeout-ms",
                           "idle-timeout-ms", "shutdown-timeout-ms"}) {
    SCOPED_TRACE(flag);
    ExpectFlagError({std::string("--") + flag, "-1"}, flag);
    ExpectFlagError({std::string("--") + flag + "=-5"}, flag);
  }
}

TEST(ParseConfig, IntegersOutsideTheirRangeAreErrors) {
  ExpectFlagError({"--threads", "257"}, "threads");
  ExpectFlagError({"--db-pool-size", "1025"}, "db-pool-size");
  ExpectFlagError({"--max-body-bytes", "1023"}, "max-body-bytes");
  ExpectFlagError({"--max-header-bytes", "100"}, "max-header-bytes");
  ExpectFlagError({"--read-timeout-ms", "9"}, "read-timeout-ms");
  ExpectFlagError({"--idle-timeout-ms", "0"}, "idle-timeout-ms");
  ExpectFlagError({"--app-key-max-days", "0"}, "app-key-max-days");
  ExpectFlagError({"--app-key-max-days", "3651"}, "app-key-max-days");
  ExpectFlagError({"--sqlite-wal-restart-mb", "0"}, "sqlite-wal-restart-mb");
}

TEST(ParseConfig, UnknownFlagIsAnErrorNamingIt) { ExpectFlagError({"--bogus", "1"}, "bogus"); }

TEST(ParseConfig, UnknownFlagWithEqualsIsAnErrorNamingIt) { ExpectFlagError({"--port=80"}, "port"); }

TEST(ParseConfig, PositionalArgumentIsAnError) {
  auto config = Parse({"serve"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().code, "invalid_flag");
  EXPECT_NE(config.error().detail.find("serve"), std::string::npos);
}

TEST(ParseConfig, MissingValueIsAnErrorNamingTheFlag) {
  ExpectFlagError({"--listen"}, "listen");
  ExpectFlagError({"--dev", "--data-dir"}, "data-dir");
  ExpectFlagError({"--threads"}, "threads");
}

TEST(ParseConfig, BadDatabaseSchemeIsAnError) { ExpectFlagError({"--database", "mysql://x"}, "database"); }

TEST(ParseConfig, EmptyDataDirIsAnError) { ExpectFlagError({"--data-dir="}, "data-dir"); }

TEST(ParseConfig, BadDevValueIsAnError) { ExpectFlagError({"--dev=maybe"}, "dev"); }

TEST(ParseConfig, BadEnvironmentValueIsAnErrorNamingTheFlag) {
  ExpectFlagError({}, "listen", {{"CREDENCE_LISTEN", "127.0.0.1:70000"}});
  ExpectFlagError({}, "threads", {{"CREDENCE_THREADS", "many"}});
}

// The configuration file (--config): a fake reader serves `files`.
using Files = std::map<std::string, std::string>;

Result<Config> ParseWithFiles(std::vector<std::string> args, Files files, Env env = {}) {
  FileReader reader = [files = std::move(files)](const std::string& path) -> Result<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return Error::InvalidArgument("unreadable_file", "No such file or directory");
    return it->second;
  };
  return ParseConfig(args, FakeEnv(std::move(env)), reader);
}

// Asserts that parsing fails with a file error naming `file:line: key`.
void ExpectFileError(const std::string& text, const std::string& where, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"--config", "/etc/credence/credence.conf"});
  auto config = ParseWithFiles(args, {{"/etc/credence/credence.conf", text}});
  ASSERT_FALSE(config.ok()) << "expected an error for:\n" << text;
  EXPECT_EQ(config.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(config.error().code, "invalid_config_file");
  EXPECT_EQ(config.error().detail.rfind("/etc/credence/credence.conf:" + where, 0), 0u) << config.error().detail;
}

TEST(ConfigFile, SetsValuesOfEveryType) {
  auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf",
                                                          "listen = 0.0.0.0:9000\n"
                                                          "data-dir = /var/lib/credence\n"
                                                          "threads = 6\n"
                                                          "record-reads = false\n"
                                                          "allow-local-repositories = yes\n"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->listen_host, "0.0.0.0");
  EXPECT_EQ(config->listen_port, 9000);
  EXPECT_EQ(config->data_dir, "/var/lib/credence");
  EXPECT_EQ(config->threads, 6);
  EXPECT_FALSE(config->record_reads);
  EXPECT_EQ(config->allow_local_repositories, std::optional<bool>(true));
  EXPECT_EQ(config->config_file, "/c.conf");
}

TEST(ConfigFile, EveryFlagCanBeSetInTheFile) {
  for (const auto& f : AllFlags()) {
    SCOPED_TRACE(f.flag + " = " + f.value);
    auto config = ParseWithFiles({"--config=/c.conf"}, {{"/c.conf", f.flag + " = " + f.value + "\n"}});
    ASSERT_TRUE(config.ok()) << config.error().detail;
    f.check(*config);
  }
}

// Every flag the usage lists (the flag table) is a name the file knows: a
// value may be refused, the name never.
TEST(ConfigFile, KnowsEveryNameOfTheFlagTable) {
  const std::string usage = ConfigUsage();
  int names = 0;
  for (size_t at = usage.find("\n  --"); at != std::string::npos; at = usage.find("\n  --", at + 1)) {
    const size_t begin = at + 5;
    const std::string name = usage.substr(begin, usage.find_first_of(" \n", begin) - begin);
    if (name == "config") continue;
    ++names;
    SCOPED_TRACE(name);
    auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf", name + " = 1\n"}});
    if (!config.ok()) {
      EXPECT_EQ(config.error().detail.find("unknown name"), std::string::npos) << config.error().detail;
    }
  }
  EXPECT_GT(names, 40);
}

TEST(ConfigFile, CommentsAndBlankLinesAreSkipped) {
  auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf",
                                                          "# Credence\n"
                                                          "\n"
                                                          "   # an indented comment\n"
                                                          "\t\n"
                                                          "# threads = 99\n"
                                                          "  threads\t=   3  \r\n"
                                                          "smtp-from = ops#1@example.com\n"
                                                          "mt-deepl-key = a=b\n"
                                                          "smtp-url =\n"
                                                          "data-dir = /srv/credence"}});  // no final newline
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->threads, 3);
  EXPECT_EQ(config->smtp_from, "ops#1@example.com");  // '#' inside a value is part of it
  EXPECT_EQ(config->mt_deepl_key, "a=b");             // so is a second '='
  EXPECT_EQ(config->smtp_url, "");
  EXPECT_EQ(config->data_dir, "/srv/credence");
}

TEST(ConfigFile, AByteOrderMarkIsIgnored) {
  auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf", "\xEF\xBB\xBFthreads = 3\n"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->threads, 3);
}

TEST(ConfigFile, AnEmptyFileGivesTheDefaults) {
  auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf", ""}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->listen_port, 8080);
  EXPECT_EQ(config->data_dir, "./data");
}

TEST(ConfigFile, UnknownNameIsAnErrorNamingFileLineAndName) {
  ExpectFileError("# x\nthreads = 2\nport = 80\n", "3: port: unknown name");
  ExpectFileError("--threads = 2\n", "1: --threads: unknown name; write it without the dashes");
}

TEST(ConfigFile, BadValueIsAnErrorNamingFileLineAndName) {
  ExpectFileError("\nthreads = many\n", "2: threads: expected a non-negative integer, got 'many'");
  ExpectFileError("listen = 127.0.0.1:70000\n", "1: listen: invalid port");
  ExpectFileError("dev = maybe\n", "1: dev: expected true or false");
  ExpectFileError("dev\n", "1: expected `name = value`, got 'dev'");
  ExpectFileError("= 3\n", "1: expected `name = value`");
  ExpectFileError("threads = 2\n\nthreads = 3\n", "3: threads: set twice (first on line 1)");
  ExpectFileError("config = /other.conf\n", "1: config: a configuration file cannot name another");
}

TEST(ConfigFile, FileErrorCarriesTheNameAsAField) {
  auto config = ParseWithFiles({"--config", "/c.conf"}, {{"/c.conf", "threads = abc\n"}});
  ASSERT_FALSE(config.ok());
  ASSERT_EQ(config.error().fields.size(), 1u);
  EXPECT_EQ(config.error().fields[0].field, "threads");
}

TEST(ConfigFile, BadValueInTheFileIsAnErrorEvenWhenAFlagSetsIt) {
  ExpectFileError("threads = abc\n", "1: threads", {"--threads", "2"});
}

TEST(ConfigFile, FlagsAndEnvironmentOverrideTheFile) {
  const Files files = {{"/c.conf", "threads = 2\nlisten = 0.0.0.0:9000\ndata-dir = /file\ndev = true\n"}};
  auto config = ParseWithFiles({"--config", "/c.conf", "--threads", "5", "--dev=false"}, files,
                               {{"CREDENCE_LISTEN", "127.0.0.1:9100"}, {"CREDENCE_THREADS", "4"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->threads, 5);                // flag > environment > file
  EXPECT_EQ(config->listen_port, 9100);         // environment > file
  EXPECT_EQ(config->data_dir, "/file");         // file > default
  EXPECT_FALSE(config->dev);                    // flag > file
  EXPECT_EQ(config->max_body_bytes, 1u << 20);  // default
}

TEST(ConfigFile, ConfigMayComeAfterTheFlagsItIsOverriddenBy) {
  auto config = ParseWithFiles({"--threads", "5", "--config", "/c.conf"}, {{"/c.conf", "threads = 2\n"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->threads, 5);
}

TEST(ConfigFile, TheFileCanSatisfyTheDevRequirementOfAFlag) {
  auto config = ParseWithFiles({"--config", "/c.conf", "--test-clock"}, {{"/c.conf", "dev = true\n"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_TRUE(config->test_clock);
}

TEST(ConfigFile, MissingFileIsAnErrorNamingIt) {
  auto config = ParseWithFiles({"--config", "/etc/credence/nope.conf"}, {});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().code, "invalid_flag");
  EXPECT_EQ(config.error().detail, "--config: cannot read /etc/credence/nope.conf: No such file or directory");
}

TEST(ConfigFile, ConfigGivenTwiceIsAnError) {
  const Files files = {{"/a.conf", ""}, {"/b.conf", ""}};
  for (std::vector<std::string> args : {std::vector<std::string>{"--config", "/a.conf", "--config", "/b.conf"},
                                        std::vector<std::string>{"--config=/a.conf", "--config=/a.conf"}}) {
    auto config = ParseWithFiles(args, files);
    ASSERT_FALSE(config.ok());
    EXPECT_NE(config.error().detail.find("--config: given twice"), std::string::npos) << config.error().detail;
  }
}

TEST(ConfigFile, ConfigNeedsAValue) {
  ExpectFlagError({"--config"}, "config");
  ExpectFlagError({"--config="}, "config");
}

TEST(ConfigFile, EnvironmentCanNameTheFileAndTheFlagWins) {
  const Files files = {{"/env.conf", "threads = 7\n"}, {"/flag.conf", "threads = 9\n"}};
  auto from_env = ParseWithFiles({}, files, {{"CREDENCE_CONFIG", "/env.conf"}});
  ASSERT_TRUE(from_env.ok()) << from_env.error().detail;
  EXPECT_EQ(from_env->threads, 7);
  EXPECT_EQ(from_env->config_file, "/env.conf");
  auto from_flag = ParseWithFiles({"--config", "/flag.conf"}, files, {{"CREDENCE_CONFIG", "/env.conf"}});
  ASSERT_TRUE(from_flag.ok()) << from_flag.error().detail;
  EXPECT_EQ(from_flag->threads, 9);
}

TEST(ConfigFile, OriginsSayWhereEachSettingCameFrom) {
  auto config = ParseWithFiles({"--config", "/c.conf", "--threads", "5"},
                               {{"/c.conf", "# x\nthreads = 2\ndata-dir = /file\nlisten = :9000\n"}},
                               {{"CREDENCE_LISTEN", "127.0.0.1:9100"}});
  ASSERT_TRUE(config.ok()) << config.error().detail;
  const std::map<std::string, std::string> expected = {
      {"threads", "--threads"}, {"data-dir", "/c.conf:3"}, {"listen", "CREDENCE_LISTEN"}};
  EXPECT_EQ(config->origins, expected);
  EXPECT_TRUE(IsFlagName("public-url"));
  EXPECT_TRUE(IsFlagName("config"));
  EXPECT_FALSE(IsFlagName("--public-url"));
  EXPECT_FALSE(IsFlagName("port"));
}

TEST(ConfigFile, NoConfigReadsNoFile) {
  bool read = false;
  FileReader reader = [&read](const std::string&) -> Result<std::string> {
    read = true;
    return std::string();
  };
  auto config = ParseConfig({"--threads", "2"}, FakeEnv({}), reader);
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(read);
  EXPECT_EQ(config->config_file, "");
}

TEST(ReadConfigFile, ReadsAFileAndRefusesWhatIsNotOne) {
  const std::string path = ::testing::TempDir() + "credence-config-test.conf";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("threads = 3\n", f);
    std::fclose(f);
  }
  auto config = ParseConfig({"--config", path}, FakeEnv({}));
  std::remove(path.c_str());
  ASSERT_TRUE(config.ok()) << config.error().detail;
  EXPECT_EQ(config->threads, 3);

  auto directory = ReadConfigFile("/");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().detail, "Is a directory");
  auto missing = ReadConfigFile("/nonexistent/credence.conf");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().detail, "No such file or directory");
}

TEST(ConfigUsage, ListsEveryFlag) {
  const std::string usage = ConfigUsage();
  for (const auto& f : AllFlags()) EXPECT_NE(usage.find("--" + f.flag), std::string::npos) << f.flag;
}

}  // namespace
}  // namespace credence
