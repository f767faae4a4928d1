import { describe, expect, it } from "vitest";
import type { PmNode } from "../../editor/Document";
import { alignBlocks, buildTranslationDocument, countRows, nodeText, sameBlock } from "./align";

const p = (id: string, text: string): PmNode => ({
  type: "paragraph",
  attrs: { blockId: id },
  content: [{ type: "text", text }],
});

describe("alignBlocks", () => {
  it("pairs blocks by id in the original's order, whatever the translation's order", () => {
    const rows = alignBlocks([p("a", "One"), p("b", "Two"), p("c", "Three")], [p("c", "Tres"), p("a", "Uno")], new Set(["c"]));
    expect(rows.map((r) => [r.blockId, nodeText(r.original), nodeText(r.translated), r.stale])).toEqual([
      ["a", "One", "Uno", false],
      ["b", "Two", "", false],
      ["c", "Three", "Tres", true],
    ]);
    expect(countRows(rows)).toEqual({ total: 3, translated: 2, stale: 1, missing: 1, removed: 0 });
  });

  it("keeps a translated block whose original is gone, after its predecessor", () => {
    const rows = alignBlocks([p("a", "One"), p("c", "Three")], [p("a", "Uno"), p("x", "Borrado"), p("c", "Tres")], new Set());
    expect(rows.map((r) => r.blockId)).toEqual(["a", "x", "c"]);
    expect(rows[1].original).toBeNull();
    expect(countRows(rows).removed).toBe(1);
  });

  it("puts an orphan that opens the translation first", () => {
    const rows = alignBlocks([p("a", "One")], [p("x", "Borrado"), p("a", "Uno")], new Set());
    expect(rows.map((r) => r.blockId)).toEqual(["x", "a"]);
  });

  it("does not mark a missing block stale, and ignores nodes without ids and duplicates", () => {
    const noId: PmNode = { type: "paragraph", content: [{ type: "text", text: "?" }] };
    const rows = alignBlocks([p("a", "One"), noId, p("a", "Again")], [p("a", "Uno"), p("a", "Otra")], new Set(["b"]));
    expect(rows).toHaveLength(1);
    expect(nodeText(rows[0].translated)).toBe("Uno");
  });
});

describe("buildTranslationDocument", () => {
  it("keeps every translated block with its original's id, applies edits and drops orphans", () => {
    const rows = alignBlocks([p("a", "One"), p("b", "Two"), p("c", "Three")], [p("a", "Uno"), p("x", "Borrado")], new Set());
    const edited: PmNode = { type: "heading", attrs: { level: 2, blockId: "wrong" }, content: [{ type: "text", text: "Dos" }] };
    const { doc, dropped } = buildTranslationDocument(rows, new Map([["b", edited]]));
    expect(dropped).toEqual(["x"]);
    expect(doc.content.map((n) => [n.attrs?.blockId, n.type, nodeText(n)])).toEqual([
      ["a", "paragraph", "Uno"],
      ["b", "heading", "Dos"],
    ]);
    expect(doc.content[1].attrs?.level).toBe(2);
  });
});

describe("sameBlock", () => {
  it("ignores the block id and key order", () => {
    expect(sameBlock(p("a", "Uno"), { content: [{ text: "Uno", type: "text" }], type: "paragraph" })).toBe(true);
    expect(sameBlock(p("a", "Uno"), p("a", "Dos"))).toBe(false);
  });
});
