import { describe, expect, it } from "vitest";
import { nodeText } from "./blockText";
import { cleanDocument } from "./extensions";
import { hasChanges, wordDiff } from "./wordDiff";

const paragraph = (text: string, blockId?: string) => ({
  type: "paragraph",
  content: [{ type: "text", text }],
  ...(blockId ? { attrs: { blockId } } : {}),
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
