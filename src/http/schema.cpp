#include "http/schema.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include "core/clock.h"
#include "core/ids.h"
#include "core/text.h"

namespace credence::http {
namespace json = boost::json;

namespace {

std::string Join(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += v;
  }
  return out;
}

std::string FieldName(const std::string& path) { return path.empty() ? "body" : path; }

bool IsEmail(std::string_view s) {
  const auto at = s.find('@');
  return at != std::string_view::npos && at > 0 && s.find('.', at) != std::string_view::npos &&
         s.back() != '.' && s.find(' ') == std::string_view::npos;
}

bool IsHttpUrl(std::string_view s) {
  return (s.rfind("http://", 0) == 0 && s.size() > 7) || (s.rfind("https://", 0) == 0 && s.size() > 8);
}

}  // namespace

Schema::Schema(Type t) : type_(t) {}

Schema Schema::Uuid() { return String().Format("uuid"); }
Schema Schema::Timestamp() { return String().Format("date-time"); }

Schema Schema::Array(Schema items) {
  Schema s(Type::kArray);
  s.items_ = std::make_shared<const Schema>(std::move(items));
  return s;
}

Schema Schema::Object(std::vector<Property> properties) {
  Schema s(Type::kObject);
  s.properties_ = std::make_shared<const std::vector<Property>>(std::move(properties));
  return s;
}

Schema Schema::FreeObject() { return Schema(Type::kObject); }

bool IsSlug(std::string_view s) {
  if (s.empty() || s.size() > 63 || s.front() == '-' || s.back() == '-') return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

Schema::FormatKind Schema::KindOfFormat(std::string_view format) {
  if (format == "uuid") return FormatKind::kUuid;
  if (format == "date-time") return FormatKind::kDateTime;
  if (format == "email") return FormatKind::kEmail;
  if (format == "uri") return FormatKind::kUri;
  return FormatKind::kNone;  // documented in the OpenAPI document only
}

void Schema::Validate(const json::value& v, const std::string& path, std::vector<FieldError>& errors,
                      std::string* code) const {
  if (v.is_null()) {
    if (!nullable_ && type_ != Type::kAny) errors.push_back({FieldName(path), "must not be null"});
    return;
  }
  switch (type_) {
    case Type::kAny: return;
    case Type::kString: {
      if (!v.is_string()) {
        errors.push_back({FieldName(path), "must be a string"});
        return;
      }
      const std::string_view s = v.get_string();
      // A UTF-8 string has between size/4 and size characters: count them
      // only when the bounds cannot be settled from its size.
      const auto bytes = static_cast<int64_t>(s.size());
      const bool settled = (!min_ || bytes / 4 >= *min_) && (!max_ || bytes <= *max_);
      const auto length = settled ? bytes : static_cast<int64_t>(Utf8Length(s));
      if (min_ && length < *min_)
        errors.push_back({FieldName(path), *min_ == 1 ? "must not be empty"
                                                      : "must be at least " + std::to_string(*min_) + " characters"});
      if (max_ && length > *max_)
        errors.push_back({FieldName(path), "must be at most " + std::to_string(*max_) + " characters"});
      if (!enum_.empty() && std::find(enum_.begin(), enum_.end(), s) == enum_.end())
        errors.push_back({FieldName(path), "must be one of: " + Join(enum_)});
      switch (format_kind_) {
        case FormatKind::kNone: break;
        case FormatKind::kUuid:
          if (!IsUuid(s)) errors.push_back({FieldName(path), "must be a UUID"});
          break;
        case FormatKind::kDateTime:
          if (!ParseTimestamp(s)) errors.push_back({FieldName(path), "must be an ISO 8601 timestamp"});
          break;
        case FormatKind::kEmail:
          if (!IsEmail(s)) errors.push_back({FieldName(path), "must be an email address"});
          break;
        case FormatKind::kUri:
          if (!IsHttpUrl(s)) errors.push_back({FieldName(path), "must be an http or https URL"});
          break;
      }
      if (check_ != nullptr && !check_(s)) errors.push_back({FieldName(path), check_message_});
      return;
    }
    case Type::kInteger: {
      int64_t n = 0;
      if (v.is_int64()) {
        n = v.get_int64();
      } else if (v.is_uint64() && v.get_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
        n = static_cast<int64_t>(v.get_uint64());
      } else if (v.is_double() && std::abs(v.get_double()) < 9e15 &&
                 v.get_double() == static_cast<double>(static_cast<int64_t>(v.get_double()))) {
        n = static_cast<int64_t>(v.get_double());
      } else {
        errors.push_back({FieldName(path), "must be an integer"});
        return;
      }
      if (min_ && n < *min_) errors.push_back({FieldName(path), "must be at least " + std::to_string(*min_)});
      if (max_ && n > *max_) errors.push_back({FieldName(path), "must be at most " + std::to_string(*max_)});
      return;
    }
    case Type::kNumber:
      if (!v.is_number()) errors.push_back({FieldName(path), "must be a number"});
      return;
    case Type::kBoolean:
      if (!v.is_bool()) errors.push_back({FieldName(path), "must be a boolean"});
      return;
    case Type::kArray: {
      if (!v.is_array()) {
        errors.push_back({FieldName(path), "must be an array"});
        return;
      }
      const auto& a = v.get_array();
      const auto size = static_cast<int64_t>(a.size());
      auto coded = [code](const std::string& own) {
        if (code != nullptr && code->empty() && !own.empty()) *code = own;
      };
      if (min_ && size < *min_) {
        errors.push_back({FieldName(path), *min_ == 1 ? "must not be empty"
                                                      : "must have at least " + std::to_string(*min_) + " items"});
        coded(too_few_code_);
      }
      if (max_ && size > *max_) {
        errors.push_back({FieldName(path), "must have at most " + std::to_string(*max_) + " items"});
        coded(too_many_code_);
      }
      // Report per-item errors for at most the first 20 bad items: a
      // 100,000-item array of wrong types should not yield 100,000 errors.
      const size_t before = errors.size();
      std::string item = path + "[";
      const size_t base = item.size();
      for (size_t i = 0; i < a.size() && errors.size() - before < 20; ++i) {
        item.resize(base);
        item += std::to_string(i);
        item += ']';
        items_->Validate(a[i], item, errors, code);
      }
      return;
    }
    case Type::kObject: {
      if (!v.is_object()) {
        errors.push_back({FieldName(path), "must be an object"});
        return;
      }
      if (!properties_) return;
      const auto& o = v.get_object();
      for (const Property& p : *properties_) {
        const std::string child = path.empty() ? p.name : path + "." + p.name;
        const json::value* field = o.if_contains(p.name);
        if (field == nullptr) {
          if (p.required) errors.push_back({child, "is required"});
          continue;
        }
        if (field->is_null() && p.required && !p.schema.nullable_) {
          errors.push_back({child, "is required"});
          continue;
        }
        // An optional field sent as null is not the same as one left out:
        // only a Nullable() field says what null means (e.g. "clears").
        if (field->is_null() && !p.schema.nullable_ && p.schema.type_ != Type::kAny) {
          errors.push_back({child, "must not be null (leave the field out instead)"});
          continue;
        }
        p.schema.Validate(*field, child, errors, code);
      }
      return;
    }
  }
}

json::value Schema::ToJsonSchema(Use use) const {
  json::object out;
  const char* type_name = nullptr;
  switch (type_) {
    case Type::kString: type_name = "string"; break;
    case Type::kInteger: type_name = "integer"; break;
    case Type::kNumber: type_name = "number"; break;
    case Type::kBoolean: type_name = "boolean"; break;
    case Type::kArray: type_name = "array"; break;
    case Type::kObject: type_name = "object"; break;
    case Type::kAny: break;
  }
  if (type_name != nullptr) {
    if (nullable_) {
      out["type"] = json::array{type_name, "null"};
    } else {
      out["type"] = type_name;
    }
  }
  if (!description_.empty()) out["description"] = description_;
  if (!format_.empty()) out["format"] = format_;
  if (!enum_.empty()) {
    json::array values;
    for (const auto& e : enum_) values.emplace_back(e);
    if (nullable_) values.emplace_back(nullptr);
    out["enum"] = std::move(values);
  }
  if (!check_message_.empty() && description_.empty()) out["description"] = check_message_;
  switch (type_) {
    case Type::kString:
      if (min_) out["minLength"] = *min_;
      if (max_) out["maxLength"] = *max_;
      break;
    case Type::kInteger:
      if (min_) out["minimum"] = *min_;
      if (max_) out["maximum"] = *max_;
      break;
    case Type::kArray:
      if (min_) out["minItems"] = *min_;
      if (max_) out["maxItems"] = *max_;
      out["items"] = items_->ToJsonSchema(use);
      break;
    case Type::kObject:
      if (properties_) {
        json::object props;
        json::array required;
        for (const Property& p : *properties_) {
          props[p.name] = p.schema.ToJsonSchema(use);
          if (p.required) required.emplace_back(p.name);
        }
        out["properties"] = std::move(props);
        if (!required.empty()) out["required"] = std::move(required);
        if (use == Use::kResponse) out["additionalProperties"] = false;
      }
      break;
    default: break;
  }
  return out;
}

}  // namespace credence::http
