// The editor's seam to the plugin manager (knowledge-base.md "Events"): the
// editor reports editor:paste and editor:insert-embed here, and asks here for
// what enabled editor and embed plugins add to it.
import type { AnyExtension } from "@tiptap/core";
import { pluginManager } from "./instance";
import type { PluginManager } from "./manager";

export type EditorEventName = "editor:paste" | "editor:insert-embed";

// Emitted on the manager's bus: every listener gets it, a failing one is
// logged and does not stop the others.
export function emitEditorEvent(name: EditorEventName, payload: Record<string, unknown>): void {
  pluginManager.emit(name, payload);
}

// TipTap extensions contributed by enabled editor plugins, in registration
// order. A plugin whose extensions() throws is skipped (and logged).
export function editorPluginExtensions(): AnyExtension[] {
  return extensionsOf(pluginManager);
}

export function extensionsOf(manager: PluginManager): AnyExtension[] {
  const out: AnyExtension[] = [];
  for (const p of manager.getEditorPlugins()) {
    if (!p.isEnabled) continue;
    try {
      out.push(...p.extensions());
    } catch (e) {
      console.error(`plugin ${p.id}: extensions() failed`, e);
    }
  }
  return out;
}

// Embeds enabled embed plugins offer in the editor's insert menu.
export interface EmbedChoice {
  pluginId: string;
  name: string;
  // The content to insert (a TipTap JSON node) for the given user input.
  create: (input: string) => Record<string, unknown> | null;
  prompt: string;
}
export function embedChoices(): EmbedChoice[] {
  return embedChoicesOf(pluginManager);
}

export function embedChoicesOf(manager: PluginManager): EmbedChoice[] {
  return manager
    .getEmbedPlugins()
    .filter((p) => p.isEnabled)
    .flatMap((p) => p.embeds.map((e) => ({ pluginId: p.id, name: e.name, prompt: e.prompt, create: (input: string) => e.create(input) })));
}
