#include "app/dev_seed.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/json_text.h"
#include "core/logging.h"
#include "identity/group_service.h"
#include "identity/tenant_service.h"
#include "kb/document.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "kb/membership_service.h"
#include "kb/translation_service.h"

namespace credence::app {
namespace {

template <class T>
T Must(Result<T> result, const char* what) {
  if (!result) throw std::runtime_error(std::string("development seed: ") + what + ": " + result.error().detail);
  return std::move(result).value();
}

// Paragraphs (and a leading heading) as an editor document; `ids` gives the
// blockIds for a translation.
std::string Doc(const std::string& heading, const std::vector<std::string>& paragraphs,
                const std::vector<std::string>& ids = {}) {
  std::vector<std::string> nodes;
  auto node = [&](const std::string& type, const std::string& attrs, const std::string& text) {
    std::string n = "{\"type\":\"" + type + "\",\"attrs\":{" + attrs;
    if (nodes.size() < ids.size()) n += std::string(attrs.empty() ? "" : ",") + "\"blockId\":\"" + ids[nodes.size()] + "\"";
    n += "},\"content\":[{\"type\":\"text\",\"text\":";
    AppendJsonString(n, text);
    n += "}]}";
    nodes.push_back(std::move(n));
  };
  node("heading", "\"level\":1", heading);
  for (const auto& p : paragraphs) node("paragraph", "", p);
  return kb::AssembleDocument(nodes);
}

std::vector<std::string> IdsOf(const std::string& content) {
  std::vector<std::string> ids;
  for (const auto& block : Must(kb::ParseOriginal(content, "content"), "parse").blocks) ids.push_back(block.block_id);
  return ids;
}

identity::Principal PersonaPrincipal(const identity::TenantService& tenants, const std::string& tenant_id,
                                     const std::string& persona) {
  const auto login = Must(tenants.DevLogin(persona, tenant_id), "persona");
  identity::Principal p;
  p.tenant_id = tenant_id;
  p.user_id = login.user.id;
  p.role = login.user.role;
  p.email = login.user.email;
  p.display_name = login.user.display_name;
  return p;
}

struct SeededEntry {
  std::string id;
  std::vector<std::string> ids;
};

SeededEntry Entry(const kb::EntryService& entries, const identity::Principal& author, const std::string& hub,
                  const std::string& key, const std::string& title, const std::vector<std::string>& paragraphs,
                  bool publish) {
  kb::NewEntry e;
  e.hub_key = hub;
  e.key = key;
  e.original_language = "en";
  e.title = title;
  e.content = Doc(title, paragraphs);
  const auto view = Must(entries.Create(author, e), "entry");
  if (publish) Must(entries.Publish(author, view.entry.id), "publish");
  return {view.entry.id, IdsOf(view.entry.content)};
}

}  // namespace

void SeedDevelopmentData(const DevSeedServices& s) {
  const identity::Tenant acme = s.tenants.EnsureDevTenant("Acme Corporation", "acme");
  const auto admin = PersonaPrincipal(s.tenants, acme.id, "admin");
  if (s.hubs.Get(admin, "handbook")) {
    LogLine(LogLevel::kInfo, "development tenant ready").Str("slug", acme.slug).Str("tenantId", acme.id);
    return;
  }
  const auto editor = PersonaPrincipal(s.tenants, acme.id, "editor");
  const auto viewer = PersonaPrincipal(s.tenants, acme.id, "viewer");
  const auto guest = PersonaPrincipal(s.tenants, acme.id, "guest");

  auto make_hub = [&](const std::string& key, const std::string& name, int days) {
    kb::NewHub hub;
    hub.key = key;
    hub.name = name;
    hub.default_expiry_days = days;
    return Must(s.hubs.Create(admin, hub), "hub");
  };
  const auto handbook = make_hub("handbook", "Employee Handbook", 180);
  const auto support = make_hub("support", "Customer Support", 90);

  // Editors work through a group; viewers and the guest are members directly.
  const auto writers = Must(s.groups.Create(admin, "Writers", std::string("People who write documentation")), "group");
  Must(s.groups.AddMember(admin, writers.id, editor.user_id), "group member");
  for (const auto* hub : {&handbook, &support}) {
    Must(s.memberships.AddGroup(admin, hub->id, writers.id, kb::AccessLevel::kEditor), "membership");
    Must(s.memberships.AddUser(admin, hub->id, viewer.user_id, kb::AccessLevel::kViewer), "membership");
  }
  Must(s.memberships.AddUser(admin, support.id, guest.user_id, kb::AccessLevel::kViewer), "membership");

  const auto welcome = Entry(s.entries, admin, "handbook", "welcome", "Welcome to Acme",
                             {"Acme builds tools that help teams trust what they know.",
                              "This handbook is where policies live. Every page has an owner and an expiry date."},
                             true);
  Must(s.entries.SetRoot(admin, welcome.id), "root");
  Must(s.translations.Create(admin, welcome.id, "es", "Bienvenido a Acme",
                             Doc("Bienvenido a Acme",
                                 {"Acme crea herramientas que ayudan a los equipos a confiar en lo que saben.",
                                  "Este manual es donde viven las políticas. Cada página tiene un responsable y una "
                                  "fecha de caducidad."},
                                 welcome.ids)),
       "translation");

  std::vector<std::string> expense_text = {"Submit expenses within 30 days with a receipt.",
                                           "Meals are reimbursed up to 50 EUR per day while travelling.",
                                           "Your manager approves every claim before payment."};
  const auto expenses = Entry(s.entries, editor, "handbook", "expenses", "Expense policy", expense_text, true);
  Must(s.translations.Create(editor, expenses.id, "es", "Política de gastos",
                             Doc("Política de gastos",
                                 {"Presenta los gastos en un plazo de 30 días con el recibo.",
                                  "Las comidas se reembolsan hasta 50 EUR por día en viaje.",
                                  "Tu responsable aprueba cada solicitud antes del pago."},
                                 expenses.ids)),
       "translation");
  // The meal allowance changed after the Spanish translation: one stale block.
  expense_text[1] = "Meals are reimbursed up to 60 EUR per day while travelling.";
  Must(s.entries.Update(editor, expenses.id, "", {"Expense policy", Doc("Expense policy", expense_text, expenses.ids)}),
       "update");

  Entry(s.entries, editor, "handbook", "security", "Security basics",
        {"Use the password manager for every work account.", "Report lost devices to IT the same day."}, false);

  const auto refunds = Entry(s.entries, admin, "support", "refunds", "Refund policy",
                             {"Customers may return products within 30 days for a full refund.",
                              "Refunds go back to the original payment method within 5 business days."},
                             true);
  Must(s.translations.Create(admin, refunds.id, "es", "Política de reembolsos",
                             Doc("Política de reembolsos",
                                 {"Los clientes pueden devolver productos en un plazo de 30 días con reembolso total.",
                                  "Los reembolsos vuelven al método de pago original en 5 días hábiles."},
                                 refunds.ids)),
       "translation");
  Entry(s.entries, admin, "support", "shipping", "Shipping times",
        {"Standard shipping takes 3 to 5 business days.", "Express shipping arrives the next business day."}, true);

  LogLine(LogLevel::kInfo, "development tenant seeded").Str("slug", acme.slug).Str("tenantId", acme.id);
}

}  // namespace credence::app
