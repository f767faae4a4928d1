// The admin area's pages and navigation (src/shell/area.ts). /admin/plugins
// and /admin/tenant belong to the plugin manager (src/plugins).
import { lazy, type ComponentType } from "react";
import type { Area, PageProps } from "../../shell/area";

// A lazy page: the module's export `name` (each module is its own chunk),
// shown to tenant owners only (Guard.tsx).
const page = (load: () => Promise<Record<string, unknown>>, name: string) =>
  lazy(async () => {
    const [module, guard] = await Promise.all([load(), import("./Guard")]);
    return { default: guard.ownerOnly(module[name] as ComponentType<PageProps>) };
  });

const config = () => import("./Config");

export const adminArea: Area = {
  routes: [
    { path: "/admin", page: page(() => import("./Landing"), "LandingPage") },
    { path: "/admin/users", page: page(() => import("./Users"), "UsersPage") },
    { path: "/admin/groups", page: page(() => import("./Groups"), "GroupsPage") },
    { path: "/admin/groups/:groupId", page: page(() => import("./Groups"), "GroupPage") },
    { path: "/admin/languages", page: page(() => import("./Languages"), "LanguagesPage") },
    { path: "/admin/categories", page: page(config, "CategoriesPage") },
    { path: "/admin/tags", page: page(config, "TagsPage") },
    { path: "/admin/block-heuristics", page: page(config, "HeuristicsPage") },
    { path: "/admin/style-rules", page: page(config, "StyleRulesPage") },
    { path: "/admin/glossaries", page: page(config, "GlossariesPage") },
    { path: "/admin/notification-channels", page: page(config, "ChannelsPage") },
    { path: "/admin/review-checklists", page: page(config, "ChecklistsPage") },
    { path: "/admin/expiry-templates", page: page(config, "ExpiryTemplatesPage") },
    { path: "/admin/entry-templates", page: page(config, "EntryTemplatesPage") },
    { path: "/admin/webhooks", page: page(() => import("./Webhooks"), "WebhooksPage") },
    { path: "/admin/webhooks/:id", page: page(() => import("./Webhooks"), "WebhookPage") },
    { path: "/admin/audit", page: page(() => import("./Audit"), "AuditPage") },
  ],
  nav: [
    { to: "/admin", label: { en: "Overview", es: "Resumen" }, section: "admin", ownerOnly: true },
    { to: "/admin/users", label: { en: "Users", es: "Usuarios" }, section: "admin", ownerOnly: true },
    { to: "/admin/groups", label: { en: "Groups", es: "Grupos" }, section: "admin", ownerOnly: true },
    { to: "/admin/languages", label: { en: "Languages", es: "Idiomas" }, section: "admin", ownerOnly: true },
    { to: "/admin/webhooks", label: { en: "Webhooks", es: "Webhooks" }, section: "admin", ownerOnly: true },
    { to: "/admin/audit", label: { en: "Audit log", es: "Registro de auditoría" }, section: "admin", ownerOnly: true },
  ],
};
