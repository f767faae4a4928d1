// Scanner throughput (docs/performance.md, "Scanner"): the full rule set
// over two generated corpora, one thread (one core), bytes per second:
//  - Wiki: 51 MB of wiki pages (Markdown prose, lists, tables, a few code
//    blocks) with about 2,650 planted secrets of five kinds, the text issue 26
//    set its target on;
//  - Mixed: 8 MiB of prose, source code, JSON log lines, configuration and
//    digit-heavy look-alikes (UUIDs, timestamps, phone-like figures) with a
//    planted secret or personal datum every few KB.
// Each also runs through detail::ReferenceScan (every pattern in Hyperscan
// with starts of match: the scanner before issue 26), so one run gives the
// ratio.
//
//   build/release/bench/scanner_bench [--corpus-mb=8] [--corpus=PATH]
//                                     [--write-corpus=PATH | --write-wiki=PATH | --findings]
//
// --corpus=PATH scans that file as the mixed corpus (one an older build
// wrote with --write-corpus, to compare two versions on the same text).
// --findings prints occurrences per detector for both corpora and checks
// them against the reference scan.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
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

// Wiki pages: prose from a small vocabulary (including words a scanner
// keys on: token, password, phone, call, secret), headings, lists, links,
// tables with dates and versions, and code blocks, with one of five secret
// kinds every ~19 KB, written the way runbooks leak them.
std::string WikiCorpus(size_t bytes, size_t* planted) {
  using credence::scanning::testing::SecretGenerator;
  SecretGenerator gen(2652);
  // clang-format off
  static constexpr const char* kWords[] = {
      "the", "a", "to", "of", "and", "in", "for", "is", "on", "with", "that", "this", "be", "by", "as", "are", "it",
      "from", "or", "at", "we", "you", "your", "our", "team", "service", "services", "deploy", "deployment",
      "release", "review", "owner", "page", "runbook", "incident", "escalation", "on-call", "call", "phone",
      "schedule", "rotation", "cluster", "database", "backup", "restore", "token", "tokens", "password",
      "secret", "secrets", "vault", "access", "policy", "policies", "customer", "customers", "support",
      "knowledge", "base", "article", "process", "approval", "change", "changes", "request", "requests",
      "ticket", "queue", "dashboard", "metrics", "alert", "alerts", "latency", "error", "errors", "budget",
      "quarter", "roadmap", "goal", "goals", "meeting", "notes", "decision", "decisions", "document",
      "documentation", "update", "updated", "before", "after", "every", "each", "when", "if", "then", "must",
      "should", "can", "will", "not", "only", "also", "new", "old", "first", "last", "next", "please", "check",
      "run", "rotate", "renew", "expire", "expires", "configure", "configuration", "environment", "staging",
      "production", "region", "graph", "telemetry", "cell", "capacity", "migration", "Kubernetes", "PostgreSQL",
      "Redis", "Slack", "GitHub", "AWS", "Acme", "Platform", "Finance", "Legal", "HR", "onboarding", "laptop",
      "expense", "travel", "holiday", "leave", "office", "guest", "Wi-Fi", "printer", "contract", "vendor"};
  // clang-format on
  const auto sentence = [&](std::string& out) {
    const size_t n = 8 + gen.Pick(13);
    for (size_t i = 0; i < n; ++i) {
      std::string word = kWords[gen.Pick(std::size(kWords))];
      if (i == 0 && word[0] >= 'a' && word[0] <= 'z') word[0] = static_cast<char>(word[0] - 'a' + 'A');
      if (i > 0) out += gen.Pick(12) == 0 ? ", " : " ";
      if (gen.Pick(40) == 0) {
        out += "[" + word + "](https://wiki.acme.io/" + word + ")";
      } else if (gen.Pick(60) == 0) {
        out += "`" + word + "`";
      } else {
        out += word;
      }
    }
    out += ". ";
  };
  const auto secret = [&]() -> std::string {
    const auto all = gen.OneOfEach();
    const auto value = [&](std::string_view detector) {
      for (const auto& [d, v] : all)
        if (d == detector) return v;
      return std::string();
    };
    switch (gen.Pick(5)) {
      case 0:
        return "Set `GITHUB_TOKEN=" + value("github_token") + "` in the job before it runs.\n";
      case 1:
        return "The bot posts with SLACK_BOT_TOKEN: " + value("slack_token") + "\n";
      case 2:
        return "```sh\nexport AWS_ACCESS_KEY_ID=" + value("aws_access_key") + "\n```\n";
      case 3:
        return "```\n" + value("private_key") + "\n```\n";
      default:
        return "Connect with `postgres://svc_" + gen.Base62(6) + ":" + gen.Base62(14) + "@db-" +
               std::to_string(gen.Pick(9)) + ".internal:5432/app` from the bastion.\n";
    }
  };
  std::string out;
  out.reserve(bytes + 8192);
  size_t next_plant = 19000;
  *planted = 0;
  while (out.size() < bytes) {
    out += "# ";
    sentence(out);
    out += "\n\n";
    for (size_t section = 0, sections = 2 + gen.Pick(4); section < sections; ++section) {
      out += "## ";
      sentence(out);
      out += "\n\n";
      for (size_t p = 0, paragraphs = 1 + gen.Pick(3); p < paragraphs; ++p) {
        for (size_t k = 0, sentences = 2 + gen.Pick(5); k < sentences; ++k) sentence(out);
        out += "\n\n";
      }
      switch (gen.Pick(6)) {
        case 0:
          for (size_t k = 0, items = 2 + gen.Pick(4); k < items; ++k) {
            out += "- ";
            sentence(out);
            out += "\n";
          }
          out += "\n";
          break;
        case 1:
          out += "| Owner | Reviewed | Version |\n|---|---|---|\n";
          for (size_t k = 0, rows = 2 + gen.Pick(4); k < rows; ++k)
            out += "| " + std::string(kWords[gen.Pick(std::size(kWords))]) + " team | 2026-" +
                   std::to_string(10 + gen.Pick(3)) + "-" + std::to_string(10 + gen.Pick(19)) + " | v" +
                   std::to_string(gen.Pick(5)) + "." + std::to_string(gen.Pick(20)) + " |\n";
          out += "\n";
          break;
        case 2:
          out += "```yaml\nreplicas: " + std::to_string(1 + gen.Pick(9)) + "\nport: 8080\ntimeout: 30s\n```\n\n";
          break;
        default:
          break;
      }
      if (out.size() >= next_plant) {
        out += secret();
        ++*planted;
        next_plant = out.size() + 13400 + gen.Pick(10000);
      }
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

size_t g_wiki_planted = 0;

const std::string& Wiki() {
  static const std::string corpus = WikiCorpus(51'000'000, &g_wiki_planted);
  return corpus;
}

const std::shared_ptr<const credence::scanning::Scanner>& TheScanner() {
  static const auto scanner = [] {
    auto created = credence::scanning::Scanner::Create();
    if (!created) throw std::runtime_error(created.error().detail);
    return *created;
  }();
  return scanner;
}

template <bool kReference>
void Scan(benchmark::State& state, const std::string& text) {
  auto scratch = TheScanner()->NewScratch();
  size_t findings = 0;
  for (auto _ : state) {
    auto result = kReference ? credence::scanning::detail::ReferenceScan(text, "bench-tenant-key")
                             : TheScanner()->Scan(text, "bench-tenant-key", *scratch);
    findings = result.size();
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["corpus_MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["distinct_findings"] = static_cast<double>(findings);
}

void ScanWikiCorpus(benchmark::State& state) { Scan<false>(state, Wiki()); }
void ScanWikiCorpusReference(benchmark::State& state) { Scan<true>(state, Wiki()); }
void ScanMixedCorpus(benchmark::State& state) { Scan<false>(state, Corpus()); }
void ScanMixedCorpusReference(benchmark::State& state) { Scan<true>(state, Corpus()); }
BENCHMARK(ScanWikiCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ScanWikiCorpusReference)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ScanMixedCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ScanMixedCorpusReference)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void CompileRuleSet(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(credence::scanning::Scanner::Create());
}
BENCHMARK(CompileRuleSet)->Unit(benchmark::kMillisecond);

// Occurrences and distinct values per detector; false when the scanner and
// the reference scan disagree.
bool PrintFindings(const char* name, const std::string& text) {
  auto scratch = TheScanner()->NewScratch();
  const auto findings = TheScanner()->Scan(text, "k", *scratch);
  const bool same = findings == credence::scanning::detail::ReferenceScan(text, "k");
  std::map<std::string, std::pair<int, int>> per_detector;  // occurrences, distinct values
  for (const auto& f : findings) {
    per_detector[f.detector].first += f.count;
    ++per_detector[f.detector].second;
  }
  std::cout << name << " (" << text.size() << " bytes): " << (same ? "same as" : "DIFFERENT FROM")
            << " the reference scan\n";
  for (const auto& [id, n] : per_detector) std::cout << "  " << id << " " << n.first << " " << n.second << "\n";
  return same;
}

}  // namespace

int main(int argc, char** argv) {
  std::string write_to;
  bool summary = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--findings") == 0) summary = true;
    if (std::strncmp(argv[i], "--corpus-mb=", 12) == 0) g_corpus_mb = std::strtoul(argv[i] + 12, nullptr, 10);
    if (std::strncmp(argv[i], "--write-corpus=", 15) == 0) write_to = argv[i] + 15;
    if (std::strncmp(argv[i], "--write-wiki=", 13) == 0) {
      std::ofstream(argv[i] + 13, std::ios::binary) << Wiki();
      std::cout << "wrote " << Wiki().size() << " bytes, " << g_wiki_planted << " planted secrets, to " << argv[i] + 13
                << "\n";
      return 0;
    }
    if (std::strncmp(argv[i], "--corpus=", 9) == 0) g_corpus_file = argv[i] + 9;
  }
  if (!write_to.empty()) {  // for running another scanner on the same text
    std::ofstream(write_to, std::ios::binary) << Corpus();
    std::cout << "wrote " << Corpus().size() << " bytes to " << write_to << "\n";
    return 0;
  }
  if (summary) {  // occurrences per detector, to compare with another scanner
    bool same = PrintFindings("mixed", Corpus());
    same = PrintFindings("wiki", Wiki()) && same;
    std::cout << "wiki: " << g_wiki_planted << " planted secrets\n";
    return same ? 0 : 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
