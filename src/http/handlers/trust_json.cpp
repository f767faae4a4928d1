#include "http/handlers/trust_json.h"

namespace credence::http {

const std::vector<std::string>& SensitivityNames() {
  static const std::vector<std::string> kNames = {"Public", "Internal", "Confidential", "Restricted"};
  return kNames;
}

Schema Days() { return Schema::Integer().Min(0).Max(3650); }

Schema PolicyOverrideSchema() {
  return Schema::Object({
      Optional("aiRetrievable", Schema::Boolean().Describe("false: not_ai_retrievable blocks")),
      Optional("customerFacingAllowed",
               Schema::Boolean().Describe("false: customer_facing_not_allowed blocks on customer-facing channels")),
      Optional("internalOnly",
               Schema::Boolean().Describe("true: internal_only_external_channel blocks on channels not internal")),
      Optional("externalModelAllowed",
               Schema::Boolean().Describe("false: external_model_not_allowed blocks when context.externalModel")),
      Optional("maxSensitivityForAi", Schema::String().Enum(SensitivityNames())),
      Optional("warnBeforeExpiryDays", Days().Describe("expiring_soon warns when fewer days are left")),
      Optional("maxReviewAgeDays", Days().Describe("review_too_old warns past this age")),
      Optional("customerFacingRequiresReview",
               Schema::Boolean().Describe("customer-facing use needs a review within maxReviewAgeDays")),
      Optional("citationRequired", Schema::Boolean().Describe("allowed sources need a citation too")),
      Optional("warnOnPersonalData",
               Schema::Boolean().Describe("personal data on an internal channel without an external model: warn "
                                          "(true, the default) or allow (false)")),
      Optional("disclaimerText", Schema::String().MaxLength(2000).Nullable().Describe(
                                     "shown with warned sources; null or \"\" clears a lower level's text")),
  });
}

}  // namespace credence::http
