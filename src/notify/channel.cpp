#include "notify/channel.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>

#include "core/text.h"

namespace credence::notify {
namespace {

namespace json = boost::json;

bool IsChatType(std::string_view type) { return type == kTypeSlack || type == kTypeTeams; }

}  // namespace

const std::vector<std::string>& ChannelTypes() {
  static const std::vector<std::string> kTypes = {std::string(kTypeEmail), std::string(kTypeSlack),
                                                  std::string(kTypeTeams), std::string(kTypeWebhook)};
  return kTypes;
}

const std::vector<std::string>& ChannelEvents() {
  static const std::vector<std::string> kEvents = {std::string(kEventExpiringSoon), std::string(kEventWarning),
                                                   std::string(kEventExpired)};
  return kEvents;
}

bool IsHttpUrl(std::string_view s) {
  if (s.empty() || s.size() > kMaxUrlLength) return false;
  auto parsed = boost::urls::parse_absolute_uri(s);
  if (!parsed) return false;
  const std::string scheme = AsciiLower(parsed->scheme());
  return (scheme == "http" || scheme == "https") && parsed->has_authority() && !parsed->encoded_host().empty();
}

std::string UrlHost(std::string_view url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed || !parsed->has_authority()) return "";
  return AsciiLower(parsed->host());
}

Status ValidateChannelInput(ChannelInput& input) {
  std::vector<FieldError> errors;
  input.name = Trim(input.name);
  if (input.name.empty())
    errors.push_back({"name", "must not be blank"});
  else if (Utf8Length(input.name) > kMaxChannelNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxChannelNameLength) + " characters"});

  const auto& types = ChannelTypes();
  if (std::find(types.begin(), types.end(), input.type) == types.end())
    errors.push_back({"type", "must be one of: email, slack, teams, webhook"});

  if (input.events) {
    const auto& known = ChannelEvents();
    if (input.events->empty()) errors.push_back({"events", "must not be empty"});
    for (size_t i = 0; i < input.events->size(); ++i)
      if (std::find(known.begin(), known.end(), (*input.events)[i]) == known.end())
        errors.push_back(
            {"events[" + std::to_string(i) + "]", "must be one of: entry.expiring_soon, entry.warning, entry.expired"});
  }

  ChannelConfig& c = input.config;
  if (input.type == kTypeEmail) {
    if (c.recipients.empty() || c.recipients.size() > kMaxRecipients)
      errors.push_back({"config.recipients", "must hold 1 to " + std::to_string(kMaxRecipients) + " addresses"});
    for (size_t i = 0; i < c.recipients.size(); ++i) {
      c.recipients[i] = Trim(c.recipients[i]);
      if (!IsPlainEmail(c.recipients[i]))
        errors.push_back({"config.recipients[" + std::to_string(i) + "]", "must be an email address"});
    }
    c.url.clear();
    c.secret.reset();
  } else if (IsChatType(input.type) || input.type == kTypeWebhook) {
    const std::string field = input.type == kTypeWebhook ? "config.url" : "config.webhookUrl";
    c.url = Trim(c.url);
    if (c.url.empty())
      errors.push_back({field, "is required"});
    else if (!IsHttpUrl(c.url))
      errors.push_back(
          {field, "must be an http or https URL of at most " + std::to_string(kMaxUrlLength) + " characters"});
    if (input.type == kTypeWebhook && c.secret) {
      const size_t length = Utf8Length(*c.secret);
      if (length < kMinSecretLength || length > kMaxSecretLength)
        errors.push_back({"config.secret", "must be " + std::to_string(kMinSecretLength) + " to " +
                                               std::to_string(kMaxSecretLength) + " characters"});
    }
    if (input.type != kTypeWebhook) c.secret.reset();
    c.recipients.clear();
    c.notify_owners = false;
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));

  std::vector<std::string> events;
  for (const auto& e : ChannelEvents())
    if (!input.events || std::find(input.events->begin(), input.events->end(), e) != input.events->end())
      events.push_back(e);
  input.events = std::move(events);
  return Ok();
}

std::string ConfigToJson(std::string_view type, const ChannelConfig& config) {
  json::object o;
  if (type == kTypeEmail) {
    json::array recipients;
    for (const auto& r : config.recipients) recipients.emplace_back(r);
    o["recipients"] = std::move(recipients);
    o["notifyOwners"] = config.notify_owners;
  } else if (type == kTypeWebhook) {
    o["url"] = config.url;
    o["secret"] = config.secret ? json::value(*config.secret) : json::value(nullptr);
  } else {
    o["webhookUrl"] = config.url;
  }
  return json::serialize(o);
}

ChannelConfig ConfigFromJson(std::string_view type, std::string_view text) {
  ChannelConfig c;
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return c;
  const auto& o = v.get_object();
  auto str = [&o](std::string_view key) -> std::optional<std::string> {
    const auto* f = o.if_contains(key);
    if (f == nullptr || !f->is_string()) return std::nullopt;
    return std::string(f->get_string());
  };
  if (type == kTypeEmail) {
    if (const auto* r = o.if_contains("recipients"); r && r->is_array())
      for (const auto& item : r->get_array())
        if (item.is_string()) c.recipients.emplace_back(item.get_string());
    if (const auto* n = o.if_contains("notifyOwners"); n && n->is_bool()) c.notify_owners = n->get_bool();
  } else if (type == kTypeWebhook) {
    c.url = str("url").value_or("");
    c.secret = str("secret");
  } else {
    c.url = str("webhookUrl").value_or("");
  }
  return c;
}

ConfigSummary Summarize(std::string_view type, const ChannelConfig& config) {
  ConfigSummary s;
  if (type == kTypeEmail) {
    s.recipient_count = static_cast<int64_t>(config.recipients.size());
    s.notify_owners = config.notify_owners;
  } else {
    s.host = UrlHost(config.url);
    s.is_signed = config.secret.has_value();
  }
  return s;
}

}  // namespace credence::notify
