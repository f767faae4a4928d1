#include "trust/model.h"

namespace credence::trust {

std::string_view DecisionName(Decision d) {
  switch (d) {
    case Decision::kAllow:
      return "allow";
    case Decision::kWarn:
      return "warn";
    case Decision::kBlock:
      return "block";
  }
  return "block";
}

Decision DecisionFromName(std::string_view name) {
  if (name == "block") return Decision::kBlock;
  if (name == "warn") return Decision::kWarn;
  return Decision::kAllow;
}

std::string_view DimensionName(Dimension d) {
  switch (d) {
    case Dimension::kFreshness:
      return "freshness";
    case Dimension::kOwnership:
      return "ownership";
    case Dimension::kProvenance:
      return "provenance";
    case Dimension::kPolicy:
      return "policy";
    case Dimension::kSensitivity:
      return "sensitivity";
    case Dimension::kContext:
      return "context";
  }
  return "context";
}

namespace {
constexpr std::string_view kSensitivityNames[] = {"Public", "Internal", "Confidential", "Restricted"};
}

std::string_view SensitivityName(Sensitivity s) { return kSensitivityNames[static_cast<int>(s)]; }

std::optional<Sensitivity> ParseSensitivity(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kSensitivityNames[i] == name) return static_cast<Sensitivity>(i);
  return std::nullopt;
}

std::string_view OriginName(Origin o) { return o == Origin::kNative ? "Native" : "Connected"; }

ReviewStrength StrengthOfReviewType(std::string_view t) {
  if (t == "QuickReview") return ReviewStrength::kQuick;
  if (t == "Attestation") return ReviewStrength::kAttestation;
  if (t == "FullReview") return ReviewStrength::kFull;
  return ReviewStrength::kNone;
}

std::string_view ReviewTypeOfStrength(ReviewStrength s) {
  switch (s) {
    case ReviewStrength::kQuick:
      return "QuickReview";
    case ReviewStrength::kAttestation:
      return "Attestation";
    case ReviewStrength::kFull:
      return "FullReview";
    case ReviewStrength::kNone:
      break;
  }
  return "";
}

void DeriveAt(SourceState& s, TimeMs now) {
  if (!s.expiry_facts) return;
  const auto st = lifecycle::ComputeExpiryStatus(*s.expiry_facts, s.windows, now);
  s.status = st.status;
  s.expiry_at = st.expiry_at;
  s.days_until_expiry = st.days_until_expiry;
}

}  // namespace credence::trust
