// The editor's seam to the plugin manager (knowledge-base.md "Events"): the
// editor reports editor:paste and editor:insert-embed here, and asks here for
// what enabled editor and embed plugins add to it. src/plugins fills these in.
import type { AnyExtension } from "@tiptap/core";

export type EditorEventName = "editor:paste" | "editor:insert-embed";

export function emitEditorEvent(_name: EditorEventName, _payload: Record<string, unknown>): void {}

// TipTap extensions contributed by enabled editor plugins.
export function editorPluginExtensions(): AnyExtension[] {
  return [];
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
  return [];
}
