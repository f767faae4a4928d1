#include "support/fuzz_support.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "app/migrations.h"
#include "app/service_set.h"
#include "core/clock.h"
#include "storage/database.h"
#include "storage/migrations.h"

namespace credence::fuzz {
namespace {

struct World {
  std::filesystem::path dir;
  std::unique_ptr<storage::Database> db;
  SystemClock clock;
  std::unique_ptr<app::ServiceSet> services;
};

// A run that crashed (abort skips atexit) left its store behind; the next
// one removes the stores of processes that are gone.
void RemoveStaleStores(const std::filesystem::path& temp) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(temp, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("credence-fuzz-")) continue;
    const long pid = std::strtol(name.c_str() + 14, nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove_all(entry, ec);
  }
}

World& TheWorld() {
  // Never destroyed: background threads of a service may still hold it
  // while the process exits; the directory is removed at exit.
  static World* world = [] {
    RemoveStaleStores(std::filesystem::temp_directory_path());
    auto* w = new World;
    w->dir = std::filesystem::temp_directory_path() / ("credence-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(w->dir);
    static const std::filesystem::path dir = w->dir;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    w->db = storage::OpenDatabase("sqlite:" + (w->dir / "fuzz.db").string(), {});
    storage::ApplyMigrations(*w->db, app::AllMigrations());
    app::ServiceSetOptions options;
    options.dev = true;
    options.version = "fuzz";
    options.node_id = "fuzz";
    options.connector_sync.data_dir = w->dir.string();
    w->services = std::make_unique<app::ServiceSet>(*w->db, w->clock, options);
    return w;
  }();
  return *world;
}

}  // namespace

storage::Database& FuzzDatabase() { return *TheWorld().db; }
const app::ServiceSet& FuzzServices() { return *TheWorld().services; }

}  // namespace credence::fuzz
