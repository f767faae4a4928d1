import { afterEach, describe, expect, it, vi, type Mock } from "vitest";
import { extensionsOf, embedChoicesOf } from "./editorHooks";
import {
  PluginManager,
  type AnalyticsPlugin,
  type EditorPlugin,
  type EmbedPlugin,
  type EventPayload,
  type FrontendPlugin,
  type PluginContext,
  type ThemePlugin,
  type WidgetPlugin,
} from "./manager";
import { Extension } from "@tiptap/core";

const host = {
  app: { name: "Credence", version: "1", language: () => "en" },
  router: { navigate: vi.fn(), currentPath: () => "/" },
  api: { call: vi.fn() as unknown as PluginContext["api"]["call"] },
};

function base(id: string) {
  return {
    id,
    name: id,
    version: "1.0.0",
    isEnabled: true,
    initialize: vi.fn<(c: PluginContext) => void>(),
    destroy: vi.fn<() => void>(),
  };
}
const editor = (id: string, ext = [Extension.create({ name: `${id}-ext` })]): EditorPlugin => ({ ...base(id), type: "editor", extensions: () => ext });
const embed = (id: string): EmbedPlugin => ({
  ...base(id),
  type: "embed",
  embeds: [{ name: "Video", prompt: "URL", create: (u) => (u.startsWith("https://") ? { type: "paragraph", attrs: { src: u } } : null) }],
});
const widget = (id: string): WidgetPlugin => ({ ...base(id), type: "widget", slot: "entry.sidebar.status", component: () => null });
const analytics = (id: string): AnalyticsPlugin => ({ ...base(id), type: "analytics", track: vi.fn() });

// The initialize mock of a test plugin.
const init = (p: FrontendPlugin) => p.initialize as unknown as Mock<(c: PluginContext) => void>;

function recorder(m: PluginManager, events: string[]) {
  const seen: Array<[string, EventPayload]> = [];
  for (const e of events) m.on(e, (p, name) => seen.push([name, p]));
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe("PluginManager: register and unregister", () => {
  it("register calls initialize with app, router, api and an event bus, and emits plugin:registered", () => {
    const m = new PluginManager(host);
    const seen = recorder(m, ["plugin:registered"]);
    const p = editor("spell-check");
    m.register(p);
    expect(p.initialize).toHaveBeenCalledTimes(1);
    const ctx = init(p).mock.calls[0][0];
    expect(ctx.app.name).toBe("Credence");
    expect(ctx.router).toBe(host.router);
    expect(ctx.api.call).toBe(host.api.call);
    expect(typeof ctx.events.emit).toBe("function");
    expect(seen).toEqual([["plugin:registered", { pluginId: "spell-check" }]]);
    expect(m.getAll()).toEqual([p]);
  });

  it("refuses a duplicate id, a bad id and the reserved namespaces", () => {
    const m = new PluginManager(host);
    m.register(editor("a"));
    const dup = editor("a");
    expect(() => m.register(dup)).toThrow(/already registered/);
    expect(dup.initialize).not.toHaveBeenCalled();
    expect(() => m.register(editor("Not Kebab"))).toThrow(/kebab-case/);
    expect(() => m.register(editor("plugin"))).toThrow(/reserved/);
    expect(() => m.register(editor("editor"))).toThrow(/reserved/);
    expect(m.getAll().map((p) => p.id)).toEqual(["a"]);
  });

  it("a plugin whose initialize throws is not registered and its listeners are dropped", () => {
    const m = new PluginManager(host);
    const seen = recorder(m, ["plugin:registered"]);
    const heard = vi.fn();
    const p = editor("broken");
    init(p).mockImplementation((ctx) => {
      ctx.events.on("other:thing", heard);
      throw new Error("boom");
    });
    expect(() => m.register(p)).toThrow("boom");
    expect(m.getAll()).toEqual([]);
    expect(seen).toEqual([]);
    m.emit("other:thing");
    expect(heard).not.toHaveBeenCalled();
  });

  it("unregister calls destroy, drops the plugin's listeners and emits plugin:unregistered", () => {
    const m = new PluginManager(host);
    const seen = recorder(m, ["plugin:unregistered"]);
    const heard = vi.fn();
    const p = analytics("stats");
    init(p).mockImplementation((ctx) => void ctx.events.on("editor:paste", heard));
    m.register(p);
    m.emit("editor:paste", { text: "x" });
    expect(heard).toHaveBeenCalledTimes(1);
    expect(m.unregister("stats")).toBe(true);
    expect(p.destroy).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([["plugin:unregistered", { pluginId: "stats" }]]);
    m.emit("editor:paste", { text: "y" });
    expect(heard).toHaveBeenCalledTimes(1);
    expect(m.getAll()).toEqual([]);
    expect(m.unregister("stats")).toBe(false);
  });
});

describe("PluginManager: enable and disable", () => {
  it("set isEnabled and emit the event, once per change (idempotent)", () => {
    const m = new PluginManager(host);
    const p = widget("w");
    m.register(p);
    const seen = recorder(m, ["plugin:enabled", "plugin:disabled"]);
    expect(m.disable("w")).toBe(true);
    expect(p.isEnabled).toBe(false);
    expect(m.disable("w")).toBe(false);
    expect(m.enable("w")).toBe(true);
    expect(p.isEnabled).toBe(true);
    expect(m.enable("w")).toBe(false);
    expect(seen).toEqual([
      ["plugin:disabled", { pluginId: "w" }],
      ["plugin:enabled", { pluginId: "w" }],
    ]);
  });

  it("refuse an unknown id", () => {
    const m = new PluginManager(host);
    expect(() => m.enable("nope")).toThrow(/No plugin/);
    expect(() => m.disable("nope")).toThrow(/No plugin/);
  });

  it("apply a theme's class and CSS variables while it is enabled", () => {
    const m = new PluginManager(host);
    const theme: ThemePlugin = { ...base("dark"), type: "theme", className: "theme-dark", variables: { "--accent": "#123456" } };
    const root = document.documentElement;
    m.register(theme);
    expect(root.classList.contains("theme-dark")).toBe(true);
    expect(root.style.getPropertyValue("--accent")).toBe("#123456");
    m.disable("dark");
    expect(root.classList.contains("theme-dark")).toBe(false);
    expect(root.style.getPropertyValue("--accent")).toBe("");
    m.enable("dark");
    expect(root.classList.contains("theme-dark")).toBe(true);
    m.unregister("dark");
    expect(root.classList.contains("theme-dark")).toBe(false);
  });
});

describe("PluginManager: type getters", () => {
  it("answer the plugins of each type, enabled or not, in registration order", () => {
    const m = new PluginManager(host);
    const plugins: FrontendPlugin[] = [editor("e1"), embed("m1"), widget("w1"), editor("e2"), analytics("a1")];
    plugins.forEach((p) => m.register(p));
    m.disable("e2");
    expect(m.getEditorPlugins().map((p) => p.id)).toEqual(["e1", "e2"]);
    expect(m.getEmbedPlugins().map((p) => p.id)).toEqual(["m1"]);
    expect(m.getWidgetPlugins().map((p) => p.id)).toEqual(["w1"]);
    expect(m.getPluginsOfType("analytics").map((p) => p.id)).toEqual(["a1"]);
    expect(m.getPluginsOfType("translation")).toEqual([]);
    expect(m.getAll().map((p) => p.id)).toEqual(["e1", "m1", "w1", "e2", "a1"]);
  });

  it("the editor hooks take enabled editor and embed plugins only", () => {
    const m = new PluginManager(host);
    const ext1 = Extension.create({ name: "one" });
    const ext2 = Extension.create({ name: "two" });
    m.register(editor("e1", [ext1]));
    m.register(editor("e2", [ext2]));
    m.register(embed("m1"));
    m.register(embed("m2"));
    m.disable("e2");
    m.disable("m2");
    expect(extensionsOf(m)).toEqual([ext1]);
    const choices = embedChoicesOf(m);
    expect(choices.map((c) => [c.pluginId, c.name, c.prompt])).toEqual([["m1", "Video", "URL"]]);
    expect(choices[0].create("https://v.example/1")).toEqual({ type: "paragraph", attrs: { src: "https://v.example/1" } });
    expect(choices[0].create("nope")).toBeNull();
  });

  it("an editor plugin whose extensions() throws is skipped and logged", () => {
    const m = new PluginManager(host);
    const err = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const bad = editor("bad");
    bad.extensions = () => {
      throw new Error("nope");
    };
    const ext = Extension.create({ name: "fine" });
    m.register(bad);
    m.register(editor("good", [ext]));
    expect(extensionsOf(m)).toEqual([ext]);
    expect(err).toHaveBeenCalled();
  });
});

describe("PluginManager: events", () => {
  it("on, emit and off; on answers an unsubscribe function", () => {
    const m = new PluginManager(host);
    const a = vi.fn();
    const b = vi.fn();
    const offA = m.on("editor:paste", a);
    m.on("editor:paste", b);
    m.emit("editor:paste", { text: "hi" });
    expect(a).toHaveBeenCalledWith({ text: "hi" }, "editor:paste");
    offA();
    m.off("editor:paste", b);
    m.emit("editor:paste", { text: "again" });
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
  });

  it("a handler that throws is logged and the others still run", () => {
    const m = new PluginManager(host);
    const err = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const after = vi.fn();
    m.on("editor:insert-embed", () => {
      throw new Error("handler broke");
    });
    m.on("editor:insert-embed", after);
    expect(() => m.emit("editor:insert-embed", { pluginId: "m1" })).not.toThrow();
    expect(after).toHaveBeenCalledTimes(1);
    expect(err).toHaveBeenCalledTimes(1);
  });

  it("a throwing handler of a built-in event does not stop register", () => {
    const m = new PluginManager(host);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const after = vi.fn();
    m.on("plugin:registered", () => {
      throw new Error("x");
    });
    m.on("plugin:registered", after);
    m.register(widget("w"));
    expect(after).toHaveBeenCalledWith({ pluginId: "w" }, "plugin:registered");
  });

  it("a handler may unsubscribe itself while the event is dispatched", () => {
    const m = new PluginManager(host);
    const second = vi.fn();
    const once = () => m.off("x:y", once);
    m.on("x:y", once);
    m.on("x:y", second);
    m.emit("x:y");
    m.emit("x:y");
    expect(second).toHaveBeenCalledTimes(2);
  });

  it("the plugin: prefix is reserved: the host's emit throws", () => {
    const m = new PluginManager(host);
    const heard = vi.fn();
    m.on("plugin:enabled", heard);
    expect(() => m.emit("plugin:enabled", { pluginId: "fake" })).toThrow(/reserved/);
    expect(heard).not.toHaveBeenCalled();
  });

  it("event names must be <namespace>:<event-name>", () => {
    const m = new PluginManager(host);
    expect(() => m.emit("saved")).toThrow(/namespace/);
    expect(() => m.on("", vi.fn())).toThrow(/namespace/);
    expect(() => m.emit("my-plugin:")).toThrow(/namespace/);
    expect(() => m.emit("my-plugin:saved")).not.toThrow();
  });
});

describe("A plugin's bound event bus", () => {
  function registerWithBus(m: PluginManager, id: string) {
    let bus!: PluginContext["events"];
    const p = widget(id);
    init(p).mockImplementation((ctx) => (bus = ctx.events));
    m.register(p);
    return bus;
  }

  it("names custom events <plugin-id>:<event-name>", () => {
    const m = new PluginManager(host);
    const bus = registerWithBus(m, "word-count");
    const heard = vi.fn();
    m.on("word-count:updated", heard);
    bus.emit("updated", { words: 3 });
    bus.emit("word-count:updated", { words: 4 });
    expect(heard.mock.calls.map((c) => c[0])).toEqual([{ words: 3 }, { words: 4 }]);
  });

  it("refuses (throws) the reserved plugin: prefix and every other namespace", () => {
    const m = new PluginManager(host);
    const bus = registerWithBus(m, "sneaky");
    const heard = vi.fn();
    m.on("plugin:enabled", heard);
    m.on("other:thing", heard);
    m.on("editor:paste", heard);
    expect(() => bus.emit("plugin:enabled", { pluginId: "x" })).toThrow(/only its own events/);
    expect(() => bus.emit("other:thing")).toThrow(/only its own events/);
    expect(() => bus.emit("editor:paste")).toThrow(/only its own events/);
    expect(heard).not.toHaveBeenCalled();
  });

  it("listens to any event, built-in ones included, and off removes the listener", () => {
    const m = new PluginManager(host);
    const bus = registerWithBus(m, "listener");
    const heard = vi.fn();
    bus.on("plugin:registered", heard);
    m.register(widget("later"));
    expect(heard).toHaveBeenCalledWith({ pluginId: "later" }, "plugin:registered");
    bus.off("plugin:registered", heard);
    m.register(widget("later-still"));
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
