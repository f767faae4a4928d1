// The admin area's pages and navigation (src/shell/area.ts), under /manage
// (the server keeps /admin for its API). /manage/plugins
// and /manage/tenant belong to the plugin manager (src/plugins).
import type { ComponentType } from "react";
import { lazyPage, type Area, type PageProps } from "../../shell/area";

// A lazy page: the module's export `name` (each module is its own chunk),
// shown to tenant owners only (Guard.tsx).
const page = (load: () => Promise<Record<string, unknown>>, name: string) =>
  lazyPage(async () => {
    const [module, guard] = await Promise.all([load(), import("./Guard")]);
    return { default: guard.ownerOnly(module[name] as ComponentType<PageProps>) };
  });

const config = () => import("./Config");

export const adminArea: Area = {
  routes: [
    { path: "/manage", page: page(() => import("./Landing"), "LandingPage") },
    { path: "/manage/users", page: page(() => import("./Users"), "UsersPage") },
    { path: "/manage/groups", page: page(() => import("./Groups"), "GroupsPage") },
    { path: "/manage/groups/:groupId", page: page(() => import("./Groups"), "GroupPage") },
    { path: "/manage/languages", page: page(() => import("./Languages"), "LanguagesPage") },
    { path: "/manage/categories", page: page(config, "CategoriesPage") },
    { path: "/manage/tags", page: page(config, "TagsPage") },
    { path: "/manage/block-heuristics", page: page(config, "HeuristicsPage") },
    { path: "/manage/style-rules", page: page(config, "StyleRulesPage") },
    { path: "/manage/glossaries", page: page(config, "GlossariesPage") },
    { path: "/manage/notification-channels", page: page(config, "ChannelsPage") },
    { path: "/manage/review-checklists", page: page(config, "ChecklistsPage") },
    { path: "/manage/expiry-templates", page: page(config, "ExpiryTemplatesPage") },
    { path: "/manage/entry-templates", page: page(config, "EntryTemplatesPage") },
    { path: "/manage/webhooks", page: page(() => import("./Webhooks"), "WebhooksPage") },
    { path: "/manage/webhooks/:id", page: page(() => import("./Webhooks"), "WebhookPage") },
    { path: "/manage/audit", page: page(() => import("./Audit"), "AuditPage") },
  ],
  nav: [
    { to: "/manage", label: { en: "Overview", es: "Resumen" }, section: "admin", ownerOnly: true },
    { to: "/manage/users", label: { en: "Users", es: "Usuarios" }, section: "admin", ownerOnly: true },
    { to: "/manage/groups", label: { en: "Groups", es: "Grupos" }, section: "admin", ownerOnly: true },
    { to: "/manage/languages", label: { en: "Languages", es: "Idiomas" }, section: "admin", ownerOnly: true },
    { to: "/manage/webhooks", label: { en: "Webhooks", es: "Webhooks" }, section: "admin", ownerOnly: true },
    { to: "/manage/audit", label: { en: "Audit log", es: "Registro de auditoría" }, section: "admin", ownerOnly: true },
  ],
};
