// The work area's pages and navigation (src/shell/area.ts): translations
// side by side (reached from an entry), expiry dashboards, notifications
// and analytics.
import { lazy } from "react";
import type { Area } from "../../shell/area";

const TranslationsPage = lazy(() => import("./Translations").then((m) => ({ default: m.TranslationsPage })));
const TranslationPage = lazy(() => import("./Translations").then((m) => ({ default: m.TranslationPage })));
const MyExpiryPage = lazy(() => import("./Expiry").then((m) => ({ default: m.MyExpiryPage })));
const SummaryPage = lazy(() => import("./Expiry").then((m) => ({ default: m.SummaryPage })));
const SummaryHubPage = lazy(() => import("./Expiry").then((m) => ({ default: m.SummaryHubPage })));
const NotificationsPage = lazy(() => import("./Notifications").then((m) => ({ default: m.NotificationsPage })));
const AnalyticsPage = lazy(() => import("./Analytics").then((m) => ({ default: m.AnalyticsPage })));

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
    { to: "/notifications", label: { en: "Notifications", es: "Notificaciones" }, section: "knowledge" },
    { to: "/analytics", label: { en: "Analytics", es: "Analítica" }, section: "knowledge" },
  ],
};
