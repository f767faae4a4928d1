// Block ids on top-level nodes (decisions.md section 5): every top-level
// node carries attrs.blockId; a node without one, or the second of two that
// share one (a paste), gets a fresh UUID. The server does the same on save;
// doing it here keeps ids stable while editing.
import { Extension } from "@tiptap/core";
import { Plugin, PluginKey } from "@tiptap/pm/state";

const TOP_LEVEL_TYPES = ["heading", "paragraph", "bulletList", "orderedList", "codeBlock", "blockquote", "horizontalRule", "table"];

export const BlockId = Extension.create({
  name: "blockId",
  addGlobalAttributes() {
    return [
      {
        types: TOP_LEVEL_TYPES,
        attributes: {
          blockId: {
            default: null,
            keepOnSplit: false,
            parseHTML: (element: HTMLElement) => element.getAttribute("data-block-id"),
            renderHTML: (attributes: Record<string, unknown>) =>
              attributes.blockId ? { "data-block-id": String(attributes.blockId) } : {},
          },
        },
      },
    ];
  },
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey("blockId"),
        appendTransaction: (transactions, _old, state) => {
          if (!transactions.some((t) => t.docChanged) && state.doc.attrs.blockIdsDone) return null;
          const seen = new Set<string>();
          const tr = state.tr;
          state.doc.forEach((node, offset) => {
            if (!("blockId" in node.attrs)) return;
            const id = node.attrs.blockId as string | null;
            if (id && !seen.has(id)) {
              seen.add(id);
              return;
            }
            const fresh = crypto.randomUUID();
            seen.add(fresh);
            tr.setNodeMarkup(offset, undefined, { ...node.attrs, blockId: fresh });
          });
          return tr.docChanged ? tr : null;
        },
      }),
    ];
  },
});
