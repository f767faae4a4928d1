#pragma once
// The answer of POST /api/trust/evaluate as JSON text, shared by the HTTP
// route and the MCP tool evaluate_sources, which must answer the same.
// The per-source objects are already JSON text (the evidence embeds the same
// text), so the answer is assembled around them rather than re-parsed.
#include <string>

namespace credence::trust {

struct Evaluation;

// {"decisionId","evaluatedAt","overallDecision",
// the members before the per-source lists, with the trailing comma.
std::string EvaluationHead(const Evaluation& e);
// The whole evaluate answer: the head and "results" with every source in order.
std::string EvaluationJson(const Evaluation& e);

}  // namespace credence::trust
