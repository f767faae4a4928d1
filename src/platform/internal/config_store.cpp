#include "platform/internal/config_store.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/text.h"
#include "platform/internal/config_queries.h"
#include "storage/session.h"

namespace credence::platform::internal {
namespace json = boost::json;
namespace {

ConfigItem ItemFromRow(const storage::Row& r) {
  ConfigItem item;
  item.id = r.Text(0);
  item.name = r.Text(1);
  item.language = r.Text(2);
  boost::system::error_code ec;
  json::value body = json::parse(r.TextView(3), ec);
  if (!ec && body.is_object()) item.body = std::move(body.as_object());
  item.created_at = r.Int(4);
  item.updated_at = r.Int(5);
  return item;
}

}  // namespace

std::vector<ConfigItem> ListItems(storage::TenantSession& tenant, std::string_view kind) {
  std::vector<ConfigItem> out;
  for (const auto& row : tenant.Run(kListItems, {kind})) out.push_back(ItemFromRow(row));
  return out;
}

std::optional<ConfigItem> GetItem(storage::TenantSession& tenant, std::string_view kind, const std::string& id) {
  auto rows = tenant.Run(kGetItem, {kind, id});
  if (rows.empty()) return std::nullopt;
  return ItemFromRow(rows.front());
}

std::optional<std::string> FindItemByName(storage::TenantSession& tenant, std::string_view kind,
                                          const std::string& name) {
  auto rows = tenant.Run(kFindItemByName, {kind, NameKey(name)});
  if (rows.empty()) return std::nullopt;
  return rows.front().Text(0);
}

std::vector<ConfigItem> SearchItemsByPrefix(storage::TenantSession& tenant, std::string_view kind,
                                            const std::string& prefix, int64_t limit) {
  const std::string low = NameKey(prefix);
  std::vector<ConfigItem> out;
  for (const auto& row : tenant.Run(kSearchItemsByPrefix, {kind, low, static_cast<int64_t>(Utf8Length(low)), limit}))
    out.push_back(ItemFromRow(row));
  return out;
}

void InsertItem(storage::TenantSession& tenant, std::string_view kind, const ConfigItem& item) {
  tenant.Run(kInsertItem, {kind, item.id, item.name, NameKey(item.name), item.language, json::serialize(item.body),
                           item.created_at});
}

bool UpdateItem(storage::TenantSession& tenant, std::string_view kind, const ConfigItem& item) {
  return tenant
             .Run(kUpdateItem, {kind, item.id, item.name, NameKey(item.name), item.language, json::serialize(item.body),
                                item.updated_at})
             .affected() > 0;
}

bool DeleteItem(storage::TenantSession& tenant, std::string_view kind, const std::string& id) {
  return tenant.Run(kDeleteItem, {kind, id}).affected() > 0;
}

int64_t CountLinks(storage::TenantSession& tenant, const std::string& item_id) {
  return tenant.Run(kCountLinks, {item_id}).front().Int(0);
}

void DeleteLinksOfItem(storage::TenantSession& tenant, const std::string& item_id) {
  tenant.Run(kDeleteLinksOfItem, {item_id});
}

std::vector<std::string> LinksOf(storage::TenantSession& tenant, std::string_view target_type,
                                 const std::string& target_id, std::string_view kind) {
  std::vector<std::string> out;
  for (const auto& row : tenant.Run(kLinksOfTarget, {target_type, target_id, kind})) out.push_back(row.Text(0));
  return out;
}

void SetLinks(storage::TenantSession& tenant, std::string_view target_type, const std::string& target_id,
              std::string_view kind, const std::vector<std::string>& item_ids) {
  tenant.Run(kDeleteLinksOfTarget, {target_type, target_id, kind});
  for (const auto& id : item_ids) tenant.Run(kInsertLink, {id, target_type, target_id});
}

}  // namespace credence::platform::internal
