// Seeds a data directory with a large knowledge base for benchmarks, through
// the real services (the same code path as the API, minus HTTP):
//
//   kb_seed DATA_DIR ENTRIES [BLOCKS_PER_ENTRY]
//
// Creates the demo tenant `acme` if needed, a hub `bench`, and ENTRIES
// entries whose titles and blocks are made of pseudo-words from a fixed
// vocabulary (seeded generator: the same corpus every run). Prints progress
// and the vocabulary file path used by the search load script.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <cmath>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "identity/tenant_service.h"
#include "platform/audit_log.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "storage/database.h"
#include "storage/migrations.h"

using namespace credence;

namespace {

// Distinct pseudo-words of two to four syllables. (An earlier version
// numbered its words, which made every prefix query expand into a dozen
// terms; natural vocabularies do not look like that.)
std::vector<std::string> Vocabulary(size_t n) {
  static const char* kSyllables[] = {"ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pra", "den", "gol", "fen",
                                     "sol", "mar", "tin", "bur", "qua", "zel", "cor", "ith", "ban", "lux", "dor", "pel"};
  std::mt19937 rng(42);
  std::vector<std::string> words;
  std::unordered_set<std::string> seen;
  while (words.size() < n) {
    std::string w;
    const int parts = 2 + static_cast<int>(rng() % 3);
    for (int i = 0; i < parts; ++i) w += kSyllables[rng() % 24];
    if (seen.insert(w).second) words.push_back(w);
  }
  return words;
}

std::string Sentence(std::mt19937& rng, const std::vector<std::string>& vocabulary, int words) {
  // Zipf-like: low indices are common, as in real text.
  std::string out;
  for (int i = 0; i < words; ++i) {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const size_t index = static_cast<size_t>(std::pow(u, 3) * static_cast<double>(vocabulary.size()));
    if (!out.empty()) out += ' ';
    out += vocabulary[std::min(index, vocabulary.size() - 1)];
  }
  return out;
}

std::string Doc(std::mt19937& rng, const std::vector<std::string>& vocabulary, int blocks) {
  std::string doc = "{\"type\":\"doc\",\"content\":[";
  for (int b = 0; b < blocks; ++b) {
    if (b > 0) doc += ',';
    doc += "{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"" + Sentence(rng, vocabulary, 20) +
           "\"}]}";
  }
  return doc + "]}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: kb_seed DATA_DIR ENTRIES [BLOCKS_PER_ENTRY]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int entries = std::atoi(argv[2]);
  const int blocks = argc > 3 ? std::atoi(argv[3]) : 5;
  storage::DatabaseOptions options;
  auto db = storage::OpenDatabase("sqlite:" + dir + "/credence.db", options);
  storage::ApplyMigrations(*db, app::AllMigrations());
  SystemClock clock;
  platform::AuditLog audit(*db, clock);
  identity::TenantService tenants(*db, clock, audit, /*dev_mode=*/true);
  const auto acme = tenants.EnsureDevTenant("Acme Corporation", "acme");
  auto login = tenants.DevLogin("admin", acme.id);
  if (!login) return 1;
  identity::Principal admin;
  admin.tenant_id = acme.id;
  admin.user_id = login->user.id;
  admin.role = identity::TenantRole::kOwner;

  kb::HubService hubs(*db, clock);
  kb::EntryService service(*db, clock);
  if (!hubs.Get(admin, "bench")) {
    kb::NewHub hub;
    hub.key = "bench";
    hub.name = "Benchmark corpus";
    hub.default_expiry_days = 365;
    hub.default_org_role = "Viewer";
    if (!hubs.Create(admin, hub)) return 1;
  }
  const auto vocabulary = Vocabulary(20000);
  {
    std::ofstream out(dir + "/vocabulary.txt");
    for (size_t i = 0; i < 2000; ++i) out << vocabulary[i] << "\n";  // the common words, for queries
  }
  std::mt19937 rng(7);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < entries; ++i) {
    kb::NewEntry e;
    e.hub_key = "bench";
    e.key = "e" + std::to_string(i) + "-" + std::to_string(rng() % 100000);
    e.original_language = "en";
    e.title = Sentence(rng, vocabulary, 5);
    e.content = Doc(rng, vocabulary, blocks);
    auto created = service.Create(admin, e);
    if (!created) {
      std::fprintf(stderr, "entry %d: %s\n", i, created.error().detail.c_str());
      return 1;
    }
    if ((i + 1) % 10000 == 0) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%d entries, %.0f/s\n", i + 1, (i + 1) / s);
    }
  }
  std::printf("%s/vocabulary.txt\n", dir.c_str());
  return 0;
}
