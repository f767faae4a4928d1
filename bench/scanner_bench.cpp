// Scanner throughput (docs/performance.md, "Scanner (issue 13)"): the full
// rule set over a mixed corpus of several MB (prose, source code, JSON log
// lines, configuration) with a planted secret or personal datum every few
// KB. Reports bytes per second for one thread (one core).
//
//   build/release/bench/scanner_bench [--corpus-mb=8] [--corpus=PATH] [--write-corpus=PATH | --findings]
//
// --corpus=PATH scans that file instead (a corpus an older build wrote with
// --write-corpus, to compare two versions of the scanner on the same text).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>

#include "scanning/generated_secrets.h"
#include "scanning/scanner.h"

namespace {

size_t g_corpus_mb = 8;

std::string MixedCorpus(size_t bytes) {
  using credence::scanning::testing::SecretGenerator;
  SecretGenerator gen(42);
  static constexpr const char* kLines[] = {
      "The review board meets every second Tuesday to go over the changes that landed in the knowledge base.\n",
      "  for (const auto& entry : entries) { if (entry.status == Status::kStale) stale.push_back(entry.id); }\n",
      R"({"ts":"2026-11-25T01:23:45.678Z","level":"info","msg":"request done","status":200,"duration_ms":12,"path":"/kb/entries/0193"})"
      "\n",
      "version: 1.24.3\nimage: "
      "registry.acme.io/app@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n",
      "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 Merge branch 'release/2.0' (#4312)\n",
      "Request 550e8400-e29b-41d4-a716-446655440000 took 1732500000000 ns; retry with token refresh.\n",
      "| Owner | Reviewed | Notes |\n|---|---|---|\n| platform team | 2026-10-01 | see the runbook for rotating keys "
      "|\n",
      "def load(path):\n    with open(path) as f:\n        return yaml.safe_load(f)  # password is read from the "
      "vault\n",
      // Phone look-alikes: a date, a time, an address, a count, an order
      // number and a version after the keyword "call".
      "2026-11-25 10:30:45 call from 10.0.3.7 took 1,234 ms; order 123456789 (v2.3.1) retried on 2026-11-26\n",
  };
  static constexpr const char* kPersonal[] = {
      "Contact alice.martin@acme-corp.de\n", "card 4111 1111 1111 1111\n", "IBAN DE89 3704 0044 0532 0130 00\n",
      "DATABASE_URL=postgres://app:s3cr3tP4ss@db.internal:5432/app\n", "password = \"Xk9#mP2$vL7q\"\n",
      // Phone numbers, each ~ a random digit so that they differ.
      "Phone: +44 20 7946 0~~~\n", "call (212) 555-01~~ after 5\n", "Tel. 030 2~~~~~~\n"};
  std::string out;
  out.reserve(bytes + 4096);
  size_t next_plant = 0;
  while (out.size() < bytes) {
    out += kLines[gen.Pick(std::size(kLines))];
    if (out.size() >= next_plant) {
      if (gen.Pick(2) == 0) {
        const auto secrets = gen.OneOfEach();
        out += "leaked: " + secrets[gen.Pick(secrets.size())].second + "\n";
      } else {
        for (const char* c = kPersonal[gen.Pick(std::size(kPersonal))]; *c != 0; ++c)
          out += *c == '~' ? static_cast<char>('0' + gen.Pick(10)) : *c;
      }
      next_plant = out.size() + 2048 + gen.Pick(4096);
    }
  }
  return out;
}

std::string g_corpus_file;

const std::string& Corpus() {
  static const std::string corpus = [] {
    if (g_corpus_file.empty()) return MixedCorpus(g_corpus_mb << 20);
    std::ifstream in(g_corpus_file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  return corpus;
}

void ScanMixedCorpus(benchmark::State& state) {
  auto scanner = credence::scanning::Scanner::Create();
  if (!scanner) {
    state.SkipWithError(scanner.error().detail.c_str());
    return;
  }
  auto scratch = (*scanner)->NewScratch();
  const std::string& text = Corpus();
  size_t findings = 0;
  for (auto _ : state) {
    auto result = (*scanner)->Scan(text, "bench-tenant-key", *scratch);
    findings = result.size();
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["corpus_MB"] = static_cast<double>(text.size()) / (1 << 20);
  state.counters["distinct_findings"] = static_cast<double>(findings);
}
BENCHMARK(ScanMixedCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void CompileRuleSet(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(credence::scanning::Scanner::Create());
}
BENCHMARK(CompileRuleSet)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  std::string write_to;
  bool summary = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--findings") == 0) summary = true;
    if (std::strncmp(argv[i], "--corpus-mb=", 12) == 0) g_corpus_mb = std::strtoul(argv[i] + 12, nullptr, 10);
    if (std::strncmp(argv[i], "--write-corpus=", 15) == 0) write_to = argv[i] + 15;
    if (std::strncmp(argv[i], "--corpus=", 9) == 0) g_corpus_file = argv[i] + 9;
  }
  if (!write_to.empty()) {  // for running another scanner on the same text
    std::ofstream(write_to, std::ios::binary) << Corpus();
    std::cout << "wrote " << Corpus().size() << " bytes to " << write_to << "\n";
    return 0;
  }
  if (summary) {  // occurrences per detector, to compare with another scanner
    auto scanner = credence::scanning::Scanner::Create();
    if (!scanner) return 1;
    auto scratch = (*scanner)->NewScratch();
    std::map<std::string, std::pair<int, int>> per_detector;  // occurrences, distinct values
    for (const auto& f : (*scanner)->Scan(Corpus(), "k", *scratch)) {
      per_detector[f.detector].first += f.count;
      ++per_detector[f.detector].second;
    }
    for (const auto& [id, n] : per_detector) std::cout << id << " " << n.first << " " << n.second << "\n";
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
