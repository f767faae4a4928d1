// The knowledge base area: hubs (list, create, settings), their entries, the
// reader and the editor.
import { lazyPage } from "../../shell/area";
import type { Area } from "../../shell/area";

const HubsPage = lazyPage(() => import("./Hubs").then((m) => ({ default: m.HubsPage })));
const HubPage = lazyPage(() => import("./Hubs").then((m) => ({ default: m.HubPage })));
const HubSettingsPage = lazyPage(() => import("./Hubs").then((m) => ({ default: m.HubSettingsPage })));
const ReaderPage = lazyPage(() => import("./Reader").then((m) => ({ default: m.ReaderPage })));
const EditorPage = lazyPage(() => import("./Editor").then((m) => ({ default: m.EditorPage })));

export const kbArea: Area = {
  routes: [
    { path: "/", page: HubsPage },
    { path: "/hubs", page: HubsPage },
    { path: "/hubs/:hubKey", page: HubPage },
    { path: "/hubs/:hubKey/new", page: EditorPage },
    { path: "/hubs/:hubKey/settings", page: HubSettingsPage },
    { path: "/entries/:entryId", page: ReaderPage },
    { path: "/entries/:entryId/edit", page: EditorPage },
  ],
  nav: [{ to: "/hubs", label: { en: "Hubs", es: "Espacios" }, section: "knowledge" }],
};
