import { describe, expect, it } from "vitest";
import { blockHash, canonicalJson, hashableNode, nodeText, rememberBlocks, rememberedText } from "./blockText";
import { cleanDocument } from "./extensions";
import { hasChanges, wordDiff } from "./wordDiff";

const paragraph = (text: string, blockId?: string) => ({
  type: "paragraph",
  content: [{ type: "text", text }],
  ...(blockId ? { attrs: { blockId } } : {}),
});

describe("block hashes", () => {
  it("are the server's: SHA-256 of the canonical JSON without the block id", async () => {
    // The hash the server answered as translatedFromHash for this block
    // (GET .../stale-blocks, decisions.md section 5).
    expect(await blockHash(paragraph("Meals cost 30 EUR per day.", "01a21536-dde5-7fe2-971a-6771eecff66d"))).toBe(
      "b48bd8becfb770937ff6dbc359c861700504e7a0f6f2ef08a2de8f707df5ab16",
    );
  });

  it("sort keys at every depth and keep other attributes", () => {
    expect(canonicalJson({ b: 1, a: [{ d: "x", c: null }] })).toBe('{"a":[{"c":null,"d":"x"}],"b":1}');
    const heading = { type: "heading", attrs: { level: 2, blockId: "x" }, content: [] };
    expect(hashableNode(heading)).toEqual({ type: "heading", attrs: { level: 2 }, content: [] });
    expect(hashableNode(paragraph("a", "x"))).toEqual(paragraph("a"));
  });

  it("ignore where a block moved but not what it says", async () => {
    expect(await blockHash(paragraph("same", "a"))).toBe(await blockHash(paragraph("same", "b")));
    expect(await blockHash(paragraph("one", "a"))).not.toBe(await blockHash(paragraph("two", "a")));
  });
});

describe("nodeText", () => {
  it("joins text, separates blocks and table cells", () => {
    expect(nodeText(paragraph("Hello"))).toBe("Hello");
    const table = {
      type: "table",
      content: [
        { type: "tableRow", content: [{ type: "tableCell", content: [paragraph("City")] }, { type: "tableCell", content: [paragraph("Limit")] }] },
        { type: "tableRow", content: [{ type: "tableCell", content: [paragraph("Madrid")] }, { type: "tableCell", content: [paragraph("60")] }] },
      ],
    };
    expect(nodeText(table)).toBe("City | Limit\nMadrid | 60");
  });
});

describe("the remembered source text", () => {
  it("finds a block's earlier text by the hash a translation was made from", async () => {
    const before = paragraph("Meals cost 30 EUR per day.", "b1");
    await rememberBlocks([before, { ...paragraph("gone"), attrs: { blockId: "b2", isDeleted: true } }]);
    expect(rememberedText(await blockHash(before))).toBe("Meals cost 30 EUR per day.");
    expect(rememberedText(await blockHash(paragraph("gone")))).toBeNull();
    expect(rememberedText("0".repeat(64))).toBeNull();
  });
});

describe("wordDiff", () => {
  it("marks exactly the changed words", () => {
    const d = wordDiff("Meals cost 30 EUR per day.", "Meals cost 50 EUR per day.");
    expect(d.filter((s) => s.kind === "removed").map((s) => s.text.trim())).toEqual(["30"]);
    expect(d.filter((s) => s.kind === "added").map((s) => s.text.trim())).toEqual(["50"]);
    expect(d.map((s) => (s.kind === "added" ? "" : s.text)).join("")).toBe("Meals cost 30 EUR per day.");
    expect(d.map((s) => (s.kind === "removed" ? "" : s.text)).join("")).toBe("Meals cost 50 EUR per day.");
  });

  it("says when nothing changed", () => {
    expect(hasChanges(wordDiff("same words", "same words"))).toBe(false);
    expect(hasChanges(wordDiff("", "new"))).toBe(true);
  });
});

describe("cleanDocument", () => {
  it("drops trailing empty paragraphs and null block ids of nested nodes, keeps real ids", () => {
    const doc = {
      type: "doc",
      content: [
        { type: "table", attrs: { blockId: "t" }, content: [{ type: "tableRow", content: [{ type: "tableCell", attrs: { colspan: 1 }, content: [{ type: "paragraph", attrs: { blockId: null } }] }] }] },
        { type: "paragraph", attrs: { blockId: "p" }, content: [{ type: "text", text: "x" }] },
        { type: "paragraph", attrs: { blockId: "q" } },
      ],
    };
    expect(cleanDocument(doc)).toEqual({
      type: "doc",
      content: [
        { type: "table", attrs: { blockId: "t" }, content: [{ type: "tableRow", content: [{ type: "tableCell", attrs: { colspan: 1 }, content: [{ type: "paragraph" }] }] }] },
        { type: "paragraph", attrs: { blockId: "p" }, content: [{ type: "text", text: "x" }] },
      ],
    });
  });
});
