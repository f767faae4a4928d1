// The client's one plugin manager, with the host context every frontend
// plugin's initialize() receives (manager.ts).
import { call } from "../api/client";
import { navigate } from "../ui";
import { PluginManager } from "./manager";

export const pluginManager = new PluginManager({
  app: {
    name: "Credence",
    version: "1",
    language: () => document.documentElement.lang || "en",
  },
  router: { navigate, currentPath: () => window.location.pathname + window.location.search },
  api: { call },
});
