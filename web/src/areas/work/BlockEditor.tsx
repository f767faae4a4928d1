// A TipTap editor for one translated block: its document holds exactly one
// top-level block (Enter cannot split it into two), so the block keeps its
// original's blockId by construction (decisions.md section 5).
import { Node } from "@tiptap/core";
import { EditorContent, useEditor, type JSONContent } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import type { PmNode } from "../../editor/Document";
import { withBlockId } from "./align";

// The document node of StarterKit, with room for exactly one block.
const OneBlock = Node.create({ name: "doc", topNode: true, content: "block" });

export function BlockEditor({
  node,
  blockId,
  label,
  onChange,
}: {
  node: PmNode;
  blockId: string;
  label: string;
  onChange: (node: PmNode) => void;
}) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ document: false, trailingNode: false, link: { openOnClick: false } }), OneBlock],
    content: { type: "doc", content: [withBlockId(node, blockId)] } as JSONContent,
    autofocus: "end",
    injectCSS: false, // the page's CSP allows no inline styles
    editorProps: { attributes: { "aria-label": label, role: "textbox", "aria-multiline": "true" } },
    onUpdate: ({ editor }) => {
      const first = (editor.getJSON().content ?? [])[0] as PmNode | undefined;
      if (first) onChange(withBlockId(first, blockId));
    },
  });
  return <EditorContent editor={editor} className="document editing block-editor" data-block-editor={blockId} />;
}
