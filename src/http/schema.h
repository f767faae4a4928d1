#pragma once
// One description of a JSON shape, used twice: to validate request bodies
// (every failure becomes a {field, message} in a 400) and to document
// requests and responses in /openapi.json. Handlers declare schemas once, as
// constants next to the route.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace boost::json {
class value;
}

namespace credence::http {

struct Property;

class Schema {
 public:
  enum class Type { kString, kInteger, kNumber, kBoolean, kArray, kObject, kAny };
  using StringCheck = bool (*)(std::string_view);

  static Schema String() { return Schema(Type::kString); }
  static Schema Integer() { return Schema(Type::kInteger); }
  static Schema Number() { return Schema(Type::kNumber); }
  static Schema Boolean() { return Schema(Type::kBoolean); }
  static Schema Any() { return Schema(Type::kAny); }
  static Schema Uuid();
  static Schema Timestamp();
  static Schema Array(Schema items);
  static Schema Object(std::vector<Property> properties);
  // A string map (JSON object with arbitrary keys), e.g. metadata.
  static Schema FreeObject();

  Schema MinLength(int64_t n) && { min_ = n; return std::move(*this); }
  Schema MaxLength(int64_t n) && { max_ = n; return std::move(*this); }
  Schema Min(int64_t n) && { min_ = n; return std::move(*this); }
  Schema Max(int64_t n) && { max_ = n; return std::move(*this); }
  Schema MinItems(int64_t n) && { min_ = n; return std::move(*this); }
  Schema MaxItems(int64_t n) && { max_ = n; return std::move(*this); }
  // Arrays: the problem code for too few and for too many items, instead of
  // `validation_failed` (e.g. `no_sources`, `too_many_sources`).
  Schema ItemCountCodes(std::string too_few, std::string too_many) && {
    too_few_code_ = std::move(too_few);
    too_many_code_ = std::move(too_many);
    return std::move(*this);
  }
  Schema Enum(std::vector<std::string> values) && { enum_ = std::move(values); return std::move(*this); }
  Schema Format(std::string f) && {
    format_ = std::move(f);
    format_kind_ = KindOfFormat(format_);
    return std::move(*this);
  }
  Schema Nullable() && { nullable_ = true; return std::move(*this); }
  Schema Describe(std::string d) && { description_ = std::move(d); return std::move(*this); }
  // A custom string rule; `message` is reported when `check` fails.
  Schema Check(StringCheck check, std::string message) && {
    check_ = check;
    check_message_ = std::move(message);
    return std::move(*this);
  }

  Type type() const { return type_; }
  const std::vector<Property>& properties() const { return *properties_; }

  // Appends every violation of `value` to `errors`; `path` names the value
  // ("" for the root, "sources[3]", "context.channel"). When `code` is given
  // and a violation has its own problem code (ItemCountCodes), the first
  // such code is stored there.
  void Validate(const boost::json::value& value, const std::string& path, std::vector<FieldError>& errors,
                std::string* code = nullptr) const;
  // The JSON Schema (2020-12 dialect, as OpenAPI 3.1 uses). Request
  // schemas stay open (the server ignores members it does not know);
  // response schemas are closed: every object with declared properties
  // gets `additionalProperties: false`, so a member the server sends but
  // the document does not name fails the API tests' response validation.
  enum class Use { kRequest, kResponse };
  boost::json::value ToJsonSchema(Use use = Use::kRequest) const;

 private:
  explicit Schema(Type t);
  // The formats Validate checks, decided once rather than by name per value.
  enum class FormatKind { kNone, kUuid, kDateTime, kEmail, kUri };
  static FormatKind KindOfFormat(std::string_view format);
  Type type_;
  bool nullable_ = false;
  std::optional<int64_t> min_, max_;
  std::vector<std::string> enum_;
  std::string format_;
  FormatKind format_kind_ = FormatKind::kNone;
  std::string description_;
  StringCheck check_ = nullptr;
  std::string check_message_;
  std::string too_few_code_, too_many_code_;
  std::shared_ptr<const Schema> items_;
  std::shared_ptr<const std::vector<Property>> properties_;
};

struct Property {
  std::string name;
  Schema schema;
  bool required;
};

inline Property Required(std::string name, Schema s) { return {std::move(name), std::move(s), true}; }
inline Property Optional(std::string name, Schema s) { return {std::move(name), std::move(s), false}; }

// Frequently used string rules.
bool IsSlug(std::string_view s);  // lowercase letters, digits, inner hyphens; 1-63 chars

}  // namespace credence::http
