import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pluginManager } from "./instance";
import type { WidgetPlugin } from "./manager";
import { resetServerPluginsForTests, type ServerPlugins } from "./serverPlugins";
import { Slot } from "./Slot";

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

const data = {
  manifests: [
    { id: "approval-workflow", uiContributions: { "entry.toolbar.publish": "ApprovalPublishButton", "tenant.admin.settings": "ApprovalWorkflowSettings" } },
    { id: "future-plugin", uiContributions: { "entry.toolbar.publish": "NotInThisClient" } },
    { id: "safe-delete", uiContributions: { "entry.delete.confirm": "SafeDeleteConfirm" } },
  ],
  installations: [
    { pluginId: "approval-workflow", isEnabled: true, settings: {} },
    { pluginId: "future-plugin", isEnabled: true, settings: {} },
    { pluginId: "safe-delete", isEnabled: false, settings: {} },
  ],
} as unknown as ServerPlugins;

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  // The approval button asks the server for the entry's approvals.
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("[]", { status: 200, headers: { "Content-Type": "application/json" } })),
  );
  resetServerPluginsForTests(data);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  for (const p of pluginManager.getAll()) pluginManager.unregister(p.id);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function render(node: React.ReactNode) {
  await act(async () => root.render(node));
  // Let the lazy chunks and their requests settle.
  for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 10)));
}

function widget(id: string, render: () => React.ReactNode): WidgetPlugin {
  return {
    id,
    name: id,
    version: "1.0.0",
    type: "widget",
    isEnabled: true,
    slot: "entry.toolbar.publish",
    component: () => <>{render()}</>,
    initialize: () => undefined,
    destroy: () => undefined,
  };
}

describe("Slot", () => {
  it("renders the enabled plugins' contributions, each marked with its plugin and component", async () => {
    await render(<Slot name="entry.toolbar.publish" context={{ entryId: "e1" }} />);
    const slot = container.querySelector('[data-slot="entry.toolbar.publish"]')!;
    expect(slot).not.toBeNull();
    const items = [...slot.querySelectorAll("[data-plugin]")].map((e) => [e.getAttribute("data-plugin"), e.getAttribute("data-component")]);
    expect(items).toEqual([
      ["approval-workflow", "ApprovalPublishButton"],
      ["future-plugin", "NotInThisClient"],
    ]);
    // The plugin's component is a lazy chunk: on a busy machine it can take
    // longer than render()'s few turns to arrive.
    await vi.waitFor(
      async () => {
        await act(async () => new Promise((r) => setTimeout(r, 10)));
        expect(slot.querySelector('[data-plugin="approval-workflow"] button')?.textContent).toBe("Request approval");
      },
      { timeout: 5000, interval: 20 },
    );
    // A component this client lacks says so instead of breaking the slot.
    expect(slot.querySelector('[data-plugin="future-plugin"]')?.textContent).toMatch(/no component NotInThisClient/);
  });

  it("shows the fallback when no enabled plugin contributes (a disabled one does not)", async () => {
    await render(<Slot name="entry.delete.confirm" fallback={<p id="none">nothing</p>} />);
    expect(container.querySelector('[data-slot="entry.delete.confirm"] #none')).not.toBeNull();
    expect(container.querySelector("[data-plugin]")).toBeNull();
  });

  it("renders enabled widget plugins, follows enable and disable, and isolates one that throws", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    pluginManager.register(
      widget("broken-widget", () => {
        throw new Error("widget failed");
      }),
    );
    pluginManager.register(widget("fine-widget", () => <span id="fine">fine</span>));
    await render(<Slot name="entry.toolbar.publish" context={{ entryId: "e1" }} />);
    expect(container.querySelector('[data-plugin="fine-widget"] #fine')).not.toBeNull();
    expect(container.querySelector('[data-plugin="broken-widget"] [role="alert"]')?.textContent).toMatch(/widget failed/);
    expect(container.querySelector('[data-plugin="approval-workflow"] button')).not.toBeNull();
    await act(async () => void pluginManager.disable("fine-widget"));
    expect(container.querySelector('[data-plugin="fine-widget"]')).toBeNull();
    await act(async () => void pluginManager.enable("fine-widget"));
    expect(container.querySelector('[data-plugin="fine-widget"]')).not.toBeNull();
  });
});
