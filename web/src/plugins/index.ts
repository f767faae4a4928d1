// The plugins area: plugin administration and the tenant settings page that
// hosts the tenant.admin.settings slot (src/shell/area.ts).
import { lazy } from "react";
import type { Area } from "../shell/area";

export const pluginsArea: Area = {
  routes: [
    { path: "/admin/plugins", page: lazy(() => import("./PluginsAdminPage")) },
    { path: "/admin/tenant", page: lazy(() => import("./TenantSettingsPage")) },
  ],
  nav: [
    { to: "/admin/tenant", label: { en: "Tenant settings", es: "Ajustes de la organización" }, section: "admin", ownerOnly: true },
    { to: "/admin/plugins", label: { en: "Plugins", es: "Complementos" }, section: "admin", ownerOnly: true },
  ],
};
