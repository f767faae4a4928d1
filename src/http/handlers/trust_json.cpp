#include "http/handlers/trust_json.h"

namespace credence::http {

const std::vector<std::string>& SensitivityNames() {
  static const std::vector<std::string> kNames = {"Public", "Internal", "Confidential", "Restricted"};
  return kNames;
}

Schema Days() { return Schema::Integer().Min(0).Max(3650); }

Schema PolicyOverrideSchema(Schema::Use use) {
  // A request's null means "inherit", as leaving the field out does
  // (docs/trust-admin.md); the stored override never holds one.
  auto field = [use](std::string name, Schema s) {
    return Optional(std::move(name), use == Schema::Use::kRequest ? std::move(s).Nullable() : std::move(s));
  };
  return Schema::Object({
      field("aiRetrievable", Schema::Boolean().Describe("false: not_ai_retrievable blocks")),
      field("customerFacingAllowed",
            Schema::Boolean().Describe("false: customer_facing_not_allowed blocks on customer-facing channels")),
      field("internalOnly",
            Schema::Boolean().Describe("true: internal_only_external_channel blocks on channels not internal")),
      field("externalModelAllowed",
            Schema::Boolean().Describe("false: external_model_not_allowed blocks when context.externalModel")),
      field("maxSensitivityForAi", Schema::String().Enum(SensitivityNames())),
      field("warnBeforeExpiryDays", Days().Describe("expiring_soon warns when fewer days are left")),
      field("maxReviewAgeDays", Days().Describe("review_too_old warns past this age")),
      field("customerFacingRequiresReview",
            Schema::Boolean().Describe("customer-facing use needs a review within maxReviewAgeDays")),
      field("citationRequired", Schema::Boolean().Describe("allowed sources need a citation too")),
      field("warnOnPersonalData",
            Schema::Boolean().Describe("personal data on an internal channel without an external model: warn "
                                       "(true, the default) or allow (false)")),
      Optional("disclaimerText", Schema::String().MaxLength(2000).Nullable().Describe(
                                     "shown with warned sources; null or \"\" clears a lower level's text")),
  });
}

}  // namespace credence::http
