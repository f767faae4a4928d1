// The plugins area: plugin administration and the tenant settings page that
// hosts the tenant.admin.settings slot (src/shell/area.ts).
import type { Area } from "../shell/area";

export const pluginsArea: Area = { routes: [], nav: [] };
