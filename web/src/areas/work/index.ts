// The work area's pages and navigation (src/shell/area.ts): translations
// side by side (reached from an entry), expiry dashboards, notifications
// and analytics.
import { call } from "../../api/client";
import { lazyPage } from "../../shell/area";
import type { Area } from "../../shell/area";

const TranslationsPage = lazyPage(() => import("./Translations").then((m) => ({ default: m.TranslationsPage })));
const TranslationPage = lazyPage(() => import("./Translations").then((m) => ({ default: m.TranslationPage })));
const MyExpiryPage = lazyPage(() => import("./Expiry").then((m) => ({ default: m.MyExpiryPage })));
const SummaryPage = lazyPage(() => import("./Expiry").then((m) => ({ default: m.SummaryPage })));
const SummaryHubPage = lazyPage(() => import("./Expiry").then((m) => ({ default: m.SummaryHubPage })));
const NotificationsPage = lazyPage(() => import("./Notifications").then((m) => ({ default: m.NotificationsPage })));
const AnalyticsPage = lazyPage(() => import("./Analytics").then((m) => ({ default: m.AnalyticsPage })));

export const workArea: Area = {
  routes: [
    { path: "/entries/:entryId/translations", page: TranslationsPage },
    { path: "/entries/:entryId/translations/:language", page: TranslationPage },
    { path: "/me/expiry", page: MyExpiryPage },
    { path: "/summary", page: SummaryPage },
    { path: "/summary/hubs/:hubKey", page: SummaryHubPage },
    { path: "/notifications", page: NotificationsPage },
    { path: "/analytics", page: AnalyticsPage },
  ],
  nav: [
    { to: "/me/expiry", label: { en: "My expiry", es: "Mi caducidad" }, section: "knowledge" },
    { to: "/summary", label: { en: "Summary", es: "Resumen" }, section: "knowledge" },
    {
      to: "/notifications",
      label: { en: "Notifications", es: "Notificaciones" },
      section: "knowledge",
      count: () => call("get", "/api/notifications/expiry-warnings").then((list) => list.length),
    },
    { to: "/analytics", label: { en: "Analytics", es: "Analítica" }, section: "knowledge" },
  ],
};
