#include "trust/evaluation_json.h"

#include "core/clock.h"
#include "trust/trust_service.h"

namespace credence::trust {

std::string EvaluationHead(const Evaluation& e) {
  size_t size = 160;
  for (const auto& r : e.results) size += r.json().size() + 1;
  std::string out;
  out.reserve(size);
  out += "{\"decisionId\":\"";
  out += e.decision_id;
  out += "\",\"evaluatedAt\":\"";
  out += FormatTimestamp(e.evaluated_at);
  out += "\",\"overallDecision\":\"";
  out += DecisionName(e.overall);
  out += "\",";
  return out;
}

std::string EvaluationJson(const Evaluation& e) {
  std::string out = EvaluationHead(e);
  out += "\"results\":[";
  for (size_t i = 0; i < e.results.size(); ++i) {
    if (i > 0) out += ',';
    out += e.results[i].json();
  }
  out += "]}";
  return out;
}

}  // namespace credence::trust
