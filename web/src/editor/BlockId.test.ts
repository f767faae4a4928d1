// Block ids in a real TipTap editor (jsdom): every top-level node gets one,
// ids it is given are kept, and the copy a paste makes gets a fresh one.
import { Editor, type JSONContent } from "@tiptap/core";
import StarterKit from "@tiptap/starter-kit";
import { afterEach, describe, expect, it } from "vitest";
import { BlockId } from "./BlockId";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let editor: Editor | null = null;

function make(content?: JSONContent | string) {
  editor = new Editor({ element: document.createElement("div"), extensions: [StarterKit, BlockId], injectCSS: false, content });
  return editor;
}
const ids = (e: Editor) => (e.getJSON().content ?? []).map((n) => n.attrs?.blockId as string | null);

afterEach(() => {
  editor?.destroy();
  editor = null;
});

describe("BlockId", () => {
  it("assigns a UUID to every top-level node, and only to those", () => {
    const e = make();
    e.commands.setContent({
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Title" }] },
        { type: "paragraph", content: [{ type: "text", text: "Body" }] },
        { type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "item" }] }] }] },
        { type: "codeBlock", content: [{ type: "text", text: "x = 1" }] },
      ],
    });
    // StarterKit keeps an empty paragraph after the code block to type into.
    const got = ids(e);
    expect(got.length).toBeGreaterThanOrEqual(4);
    for (const id of got) expect(id).toMatch(UUID);
    expect(new Set(got).size).toBe(got.length);
    // The paragraph inside the list item is not a top-level block.
    const list = (e.getJSON().content ?? [])[2] as JSONContent;
    const inner = (list.content![0] as JSONContent).content![0] as JSONContent;
    expect(inner.attrs?.blockId ?? null).toBeNull();
  });

  it("keeps the ids a document already has", () => {
    const e = make();
    e.commands.setContent({
      type: "doc",
      content: [
        { type: "paragraph", attrs: { blockId: "keep-1" }, content: [{ type: "text", text: "one" }] },
        { type: "paragraph", attrs: { blockId: "keep-2" }, content: [{ type: "text", text: "two" }] },
        { type: "paragraph", content: [{ type: "text", text: "new" }] },
      ],
    });
    const got = ids(e);
    expect(got.slice(0, 2)).toEqual(["keep-1", "keep-2"]);
    expect(got[2]).toMatch(UUID);
    // Typing in a block keeps its id.
    e.commands.insertContentAt(2, "more ");
    expect(ids(e).slice(0, 2)).toEqual(["keep-1", "keep-2"]);
  });

  it("gives the second of two blocks that share an id (a paste) a fresh one", () => {
    const e = make();
    e.commands.setContent({
      type: "doc",
      content: [{ type: "paragraph", attrs: { blockId: "orig" }, content: [{ type: "text", text: "original" }] }],
    });
    e.commands.focus("end");
    // jsdom has no ClipboardEvent; ProseMirror's pasteHTML only needs one to exist.
    if (typeof globalThis.ClipboardEvent === "undefined")
      (globalThis as Record<string, unknown>).ClipboardEvent = class extends Event {
        clipboardData = null;
      };
    // Paste HTML that carries the same block id, as copying the block does.
    e.view.pasteHTML('<p data-block-id="orig">original</p><p data-block-id="orig">copy</p>');
    const got = ids(e);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got[0]).toBe("orig");
    expect(got.filter((id) => id === "orig")).toHaveLength(1);
    for (const id of got.slice(1)) expect(id).toMatch(UUID);
    expect(new Set(got).size).toBe(got.length);
  });

  it("reads pasted ids (a pasted block with an unused id keeps it) and renews a duplicate inserted as JSON", () => {
    const e = make();
    e.commands.setContent({ type: "doc", content: [{ type: "paragraph", attrs: { blockId: "orig" }, content: [{ type: "text", text: "a" }] }] });
    e.commands.focus("end");
    if (typeof globalThis.ClipboardEvent === "undefined")
      (globalThis as Record<string, unknown>).ClipboardEvent = class extends Event {
        clipboardData = null;
      };
    e.view.pasteHTML('<p data-block-id="x">b</p><p data-block-id="other">c</p>');
    expect(ids(e)).toContain("other");
    e.commands.insertContentAt(e.state.doc.content.size, { type: "paragraph", attrs: { blockId: "orig" }, content: [{ type: "text", text: "dup" }] });
    const got = ids(e);
    expect(got[0]).toBe("orig");
    expect(got.filter((id) => id === "orig")).toHaveLength(1);
    expect(new Set(got).size).toBe(got.length);
    expect(got.every((id) => !!id)).toBe(true);
  });

  it("splitting a block (Enter) gives the new block its own id", () => {
    const e = make();
    e.commands.setContent({ type: "doc", content: [{ type: "paragraph", attrs: { blockId: "p1" }, content: [{ type: "text", text: "abcdef" }] }] });
    e.commands.setTextSelection(4);
    e.commands.splitBlock();
    const got = ids(e);
    expect(got).toHaveLength(2);
    expect(got[0]).toBe("p1");
    expect(got[1]).toMatch(UUID);
  });
});
