// The editor's extensions: StarterKit (headings, lists, code, links...),
// tables (TableKit; the server keeps any top-level node, decisions.md
// section 5), block ids, and what enabled editor plugins add.
import type { AnyExtension } from "@tiptap/core";
import StarterKit from "@tiptap/starter-kit";
import { TableKit } from "@tiptap/extension-table";
import { BlockId } from "./BlockId";
import { editorPluginExtensions } from "../plugins/editorHooks";

export function editorExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({ link: { openOnClick: false } }),
    // No column resizing: its handles set inline style attributes, which the
    // page's CSP refuses.
    TableKit.configure({ table: { resizable: false } }),
    BlockId,
    ...editorPluginExtensions(),
  ];
}

// The editor keeps an empty paragraph at the end to type into (StarterKit's
// trailing node); it is not content.
export function withoutTrailingEmptyParagraphs<T extends { content?: { type?: string; content?: unknown[] }[] }>(doc: T): T {
  const content = [...(doc.content ?? [])];
  while (content.length > 1 && content[content.length - 1].type === "paragraph" && !content[content.length - 1].content?.length)
    content.pop();
  return { ...doc, content };
}

export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}
