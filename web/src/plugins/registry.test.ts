import { describe, expect, it } from "vitest";
import { parseSettingsJson } from "./PluginsAdminPage";
import { loadComponent, registeredComponentNames, resolveComponent } from "./registry";
import { contributionsFor, type ServerPlugins } from "./serverPlugins";

describe("the component registry", () => {
  it("every registered name loads a component exported under that name", async () => {
    expect(registeredComponentNames.length).toBeGreaterThanOrEqual(11);
    for (const name of registeredComponentNames) {
      const c = await loadComponent(name);
      expect(typeof c, name).toBe("function");
      expect(resolveComponent(name)).toBe(resolveComponent(name)); // one lazy component per name
    }
    expect(resolveComponent("NoSuchComponent")).toBeUndefined();
  });
});

describe("slot contributions", () => {
  const data = {
    manifests: [
      { id: "content-rules", uiContributions: { "entry.sidebar.status": "ContentRulesStatus", "tenant.admin.settings": "ContentRulesSettings" } },
      { id: "approval-workflow", uiContributions: { "entry.toolbar.publish": "ApprovalPublishButton", "tenant.admin.settings": "ApprovalWorkflowSettings" } },
      { id: "safe-delete", uiContributions: { "tenant.admin.settings": "SafeDeleteSettings" } },
    ],
    installations: [
      { pluginId: "approval-workflow", isEnabled: true, settings: { exemptHubs: ["x"] } },
      { pluginId: "content-rules", isEnabled: true, settings: {} },
      { pluginId: "safe-delete", isEnabled: false, settings: {} },
    ],
  } as unknown as ServerPlugins;

  it("come from the enabled installations only, in the manifests' order, with their settings", () => {
    expect(contributionsFor(data, "tenant.admin.settings")).toEqual([
      { slot: "tenant.admin.settings", componentName: "ContentRulesSettings", pluginId: "content-rules", settings: {} },
      { slot: "tenant.admin.settings", componentName: "ApprovalWorkflowSettings", pluginId: "approval-workflow", settings: { exemptHubs: ["x"] } },
    ]);
    expect(contributionsFor(data, "entry.toolbar.publish").map((c) => c.componentName)).toEqual(["ApprovalPublishButton"]);
    expect(contributionsFor(data, "entry.delete.confirm")).toEqual([]);
  });
});

describe("the JSON settings editor", () => {
  it("accepts an object and says why anything else is refused", () => {
    expect(parseSettingsJson('{"days": 7}')).toEqual({ value: { days: 7 } });
    expect(parseSettingsJson("[1]")).toEqual({ error: "not-object" });
    expect(parseSettingsJson("null")).toEqual({ error: "not-object" });
    expect(parseSettingsJson("{days: 7}").error).toBeTruthy();
  });
});
