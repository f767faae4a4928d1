// The editor's extensions: StarterKit (headings, lists, code, links...),
// tables (TableKit; the server keeps any top-level node, decisions.md
// section 5), block ids, and what enabled editor plugins add.
import type { AnyExtension, JSONContent } from "@tiptap/core";
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

// The document as saved: no trailing empty paragraph, and no empty blockId
// attribute on nested nodes (BlockId gives ids to top-level nodes only; the
// global attribute would otherwise put blockId: null on every paragraph in a
// list or a table cell).
export function cleanDocument(doc: JSONContent): JSONContent {
  const strip = (node: JSONContent): JSONContent => {
    const out: JSONContent = { ...node };
    if (out.attrs && "blockId" in out.attrs && out.attrs.blockId == null) {
      const { blockId: _omit, ...rest } = out.attrs;
      if (Object.keys(rest).length) out.attrs = rest;
      else delete out.attrs;
    }
    if (out.content) out.content = out.content.map(strip);
    return out;
  };
  return withoutTrailingEmptyParagraphs({ ...doc, content: (doc.content ?? []).map(strip) });
}
