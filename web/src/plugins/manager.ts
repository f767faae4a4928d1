// The frontend plugin manager (knowledge-base.md "Events"): frontend plugins
// (editor, embed, widget, theme, export, import, analytics, translation)
// register here, are enabled and disabled here, and talk to the client and
// to each other through its event emitter.
//
// The contract (docs/web-client.md, "Plugins"):
// - register(plugin): refused (throws) for a duplicate id or an id that is not
//   kebab-case; calls plugin.initialize(context) with {app, router, api,
//   events}, where `events` is an event bus bound to the plugin's id; if
//   initialize throws, the plugin is not registered and the error is rethrown.
//   Emits plugin:registered {pluginId}.
// - unregister(id): calls destroy(), drops the listeners the plugin added
//   through its bound bus, removes it; emits plugin:unregistered {pluginId}.
//   Answers false for an unknown id.
// - enable(id) / disable(id): set isEnabled and emit plugin:enabled or
//   plugin:disabled {pluginId}; idempotent (no event when nothing changes;
//   answers whether something changed). Unknown id: throws. A theme plugin's
//   class and CSS variables are applied while it is registered and enabled.
// - getAll() and the type getters (getEditorPlugins, getEmbedPlugins,
//   getWidgetPlugins, getPluginsOfType) answer every registered plugin of the
//   type, enabled or not, in registration order; callers filter on isEnabled.
// - on(event, handler) answers an unsubscribe function; off(event, handler).
// - emit(event, payload): runs the handlers in subscription order; a handler
//   that throws is logged (console.error) and the others still run.
//
// Event names: the built-in plugin:registered, plugin:unregistered,
// plugin:enabled and plugin:disabled, emitted only by the manager (the
// `plugin:` prefix is reserved: emit("plugin:...") throws an Error, for the
// host and plugins alike); every other event is `<namespace>:<event-name>`
// (custom events of a plugin: `<plugin-id>:<event-name>`; the editor's
// editor:paste and editor:insert-embed). A plugin's bound bus emits only in
// its own namespace: "saved" becomes "<plugin-id>:saved"; "<own-id>:saved" is
// kept; any other namespace (plugin:, editor:, another plugin's id) throws.
import type { AnyExtension } from "@tiptap/core";
import type { ComponentType } from "react";
import type { SlotContext, SlotName } from "./Slot";

export type PluginType = "editor" | "embed" | "widget" | "theme" | "export" | "import" | "analytics" | "translation";

export const BUILT_IN_EVENTS = ["plugin:registered", "plugin:unregistered", "plugin:enabled", "plugin:disabled"] as const;
export type BuiltInEvent = (typeof BUILT_IN_EVENTS)[number];
export const RESERVED_PREFIX = "plugin:";

export type EventPayload = Record<string, unknown>;
export type EventHandler = (payload: EventPayload, event: string) => void;

// What a plugin is given by register(): the client it plugs into.
export interface PluginContext {
  app: { name: string; version: string; language: () => string };
  router: { navigate: (to: string) => void; currentPath: () => string };
  api: { call: typeof import("../api/client").call };
  events: PluginEventBus;
}

export interface PluginEventBus {
  // name: "<event-name>" (prefixed with the plugin's id) or "<own-id>:<event-name>".
  emit(name: string, payload?: EventPayload): void;
  on(name: string, handler: EventHandler): () => void;
  off(name: string, handler: EventHandler): void;
}

interface PluginBase {
  id: string;
  name: string;
  version: string;
  isEnabled: boolean;
  initialize(context: PluginContext): void;
  destroy(): void;
}

export interface EditorPlugin extends PluginBase {
  type: "editor";
  // TipTap extensions added to every editor while the plugin is enabled.
  extensions(): AnyExtension[];
}

export interface EmbedDefinition {
  name: string;
  // What the editor asks the user for (a URL, an id...).
  prompt: string;
  // The TipTap JSON node to insert for the input, or null when it is not valid.
  create(input: string): Record<string, unknown> | null;
}
export interface EmbedPlugin extends PluginBase {
  type: "embed";
  embeds: EmbedDefinition[];
}

// What a slot passes to the components it renders (server contributions and
// widget plugins alike).
export interface SlotComponentProps {
  pluginId: string;
  context: SlotContext;
  // The tenant's settings of the plugin (server plugins; {} for widgets).
  settings: Record<string, unknown>;
}
export interface WidgetPlugin extends PluginBase {
  type: "widget";
  slot: SlotName;
  component: ComponentType<SlotComponentProps>;
}

export interface ThemePlugin extends PluginBase {
  type: "theme";
  // Added to <html> while enabled.
  className?: string;
  // CSS custom properties ("--accent": "#123456") set on <html> through the
  // CSSOM (the CSP forbids inline style attributes, not CSSOM writes).
  variables?: Record<string, string>;
}

export interface ExportPlugin extends PluginBase {
  type: "export";
  formats: string[];
  exportDocument(document: Record<string, unknown>, format: string): Promise<Blob | string>;
}

export interface ImportPlugin extends PluginBase {
  type: "import";
  formats: string[];
  importDocument(input: Blob | string, format: string): Promise<Record<string, unknown>>;
}

export interface AnalyticsPlugin extends PluginBase {
  type: "analytics";
  track(event: string, properties?: EventPayload): void;
}

export interface TranslationPlugin extends PluginBase {
  type: "translation";
  translate(text: string, from: string, to: string): Promise<string>;
}

export type FrontendPlugin =
  | EditorPlugin
  | EmbedPlugin
  | WidgetPlugin
  | ThemePlugin
  | ExportPlugin
  | ImportPlugin
  | AnalyticsPlugin
  | TranslationPlugin;

export type PluginOfType<T extends PluginType> = Extract<FrontendPlugin, { type: T }>;

const PLUGIN_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const EVENT_NAME = /^[a-z][a-z0-9-]*:[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function checkEventName(name: string): void {
  if (!EVENT_NAME.test(name))
    throw new Error(`Event name '${name}' is not '<namespace>:<event-name>' (for example 'my-plugin:saved').`);
}

export class PluginManager {
  private readonly plugins = new Map<string, FrontendPlugin>();
  private readonly handlers = new Map<string, EventHandler[]>();
  // The listeners each plugin added through its bound bus, dropped on unregister.
  private readonly owned = new Map<string, Array<[string, EventHandler]>>();

  constructor(private readonly host: Omit<PluginContext, "events">) {}

  register(plugin: FrontendPlugin): void {
    if (!PLUGIN_ID.test(plugin.id)) throw new Error(`Plugin id '${plugin.id}' is not kebab-case.`);
    if (this.plugins.has(plugin.id)) throw new Error(`A plugin with id '${plugin.id}' is already registered.`);
    if (plugin.id === "plugin" || plugin.id === "editor")
      throw new Error(`Plugin id '${plugin.id}' is reserved for built-in events.`);
    this.owned.set(plugin.id, []);
    try {
      plugin.initialize({ ...this.host, events: this.busFor(plugin.id) });
    } catch (e) {
      this.dropOwnedListeners(plugin.id);
      throw e;
    }
    this.plugins.set(plugin.id, plugin);
    if (plugin.type === "theme" && plugin.isEnabled) applyTheme(plugin, true);
    this.emitBuiltIn("plugin:registered", plugin.id);
  }

  unregister(id: string): boolean {
    const plugin = this.plugins.get(id);
    if (!plugin) return false;
    if (plugin.type === "theme" && plugin.isEnabled) applyTheme(plugin, false);
    try {
      plugin.destroy();
    } catch (e) {
      console.error(`plugin ${id}: destroy failed`, e);
    }
    this.dropOwnedListeners(id);
    this.plugins.delete(id);
    this.emitBuiltIn("plugin:unregistered", id);
    return true;
  }

  enable(id: string): boolean {
    return this.setEnabled(id, true);
  }

  disable(id: string): boolean {
    return this.setEnabled(id, false);
  }

  get(id: string): FrontendPlugin | undefined {
    return this.plugins.get(id);
  }

  getAll(): FrontendPlugin[] {
    return [...this.plugins.values()];
  }

  getPluginsOfType<T extends PluginType>(type: T): PluginOfType<T>[] {
    return this.getAll().filter((p): p is PluginOfType<T> => p.type === type);
  }

  getEditorPlugins(): EditorPlugin[] {
    return this.getPluginsOfType("editor");
  }

  getEmbedPlugins(): EmbedPlugin[] {
    return this.getPluginsOfType("embed");
  }

  getWidgetPlugins(): WidgetPlugin[] {
    return this.getPluginsOfType("widget");
  }

  on(event: string, handler: EventHandler): () => void {
    checkEventName(event);
    const list = this.handlers.get(event) ?? [];
    list.push(handler);
    this.handlers.set(event, list);
    return () => this.off(event, handler);
  }

  off(event: string, handler: EventHandler): void {
    const list = this.handlers.get(event);
    if (!list) return;
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.handlers.delete(event);
  }

  // The host's emit: any well-formed event name except the reserved prefix.
  emit(event: string, payload: EventPayload = {}): void {
    if (event.startsWith(RESERVED_PREFIX))
      throw new Error(`Event '${event}': the '${RESERVED_PREFIX}' prefix is reserved for the manager's built-in events.`);
    checkEventName(event);
    this.dispatch(event, payload);
  }

  private setEnabled(id: string, enabled: boolean): boolean {
    const plugin = this.plugins.get(id);
    if (!plugin) throw new Error(`No plugin with id '${id}' is registered.`);
    if (plugin.isEnabled === enabled) return false;
    plugin.isEnabled = enabled;
    if (plugin.type === "theme") applyTheme(plugin, enabled);
    this.emitBuiltIn(enabled ? "plugin:enabled" : "plugin:disabled", id);
    return true;
  }

  private emitBuiltIn(event: BuiltInEvent, pluginId: string): void {
    this.dispatch(event, { pluginId });
  }

  private dispatch(event: string, payload: EventPayload): void {
    // A copy: a handler may unsubscribe itself (or others) while we loop.
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      try {
        handler(payload, event);
      } catch (e) {
        console.error(`plugin event ${event}: a handler failed`, e);
      }
    }
  }

  private busFor(pluginId: string): PluginEventBus {
    const own = `${pluginId}:`;
    return {
      emit: (name, payload = {}) => {
        const full = name.includes(":") ? name : own + name;
        if (!full.startsWith(own))
          throw new Error(`Plugin '${pluginId}' may emit only its own events ('${own}<event-name>'), not '${name}'.`);
        checkEventName(full);
        this.dispatch(full, payload);
      },
      on: (name, handler) => {
        const unsubscribe = this.on(name, handler);
        this.owned.get(pluginId)?.push([name, handler]);
        return unsubscribe;
      },
      off: (name, handler) => this.off(name, handler),
    };
  }

  private dropOwnedListeners(pluginId: string): void {
    for (const [name, handler] of this.owned.get(pluginId) ?? []) this.off(name, handler);
    this.owned.delete(pluginId);
  }
}

function applyTheme(plugin: ThemePlugin, on: boolean): void {
  if (typeof document === "undefined") return;
  const root = document.documentElement;
  if (plugin.className) root.classList.toggle(plugin.className, on);
  for (const [name, value] of Object.entries(plugin.variables ?? {})) {
    if (on) root.style.setProperty(name, value);
    else root.style.removeProperty(name);
  }
}
