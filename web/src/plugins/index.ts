// The plugins area: plugin administration and the tenant settings page that
// hosts the tenant.admin.settings slot (src/shell/area.ts).
import { lazyPage } from "../shell/area";
import type { Area } from "../shell/area";

export const pluginsArea: Area = {
  routes: [
    { path: "/manage/plugins", page: lazyPage(() => import("./PluginsAdminPage")) },
    { path: "/manage/tenant", page: lazyPage(() => import("./TenantSettingsPage")) },
  ],
  nav: [
    { to: "/manage/tenant", label: { en: "Tenant settings", es: "Ajustes de la organización" }, section: "admin", ownerOnly: true },
    { to: "/manage/plugins", label: { en: "Plugins", es: "Complementos" }, section: "admin", ownerOnly: true },
  ],
};
