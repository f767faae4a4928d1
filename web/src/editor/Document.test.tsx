import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DocumentView } from "./Document";

const doc = JSON.stringify({
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 1, blockId: "h" }, content: [{ type: "text", text: "Comidas" }] },
    { type: "paragraph", attrs: { blockId: "p" }, content: [{ type: "text", text: "Cuestan 30 EUR." }] },
    { type: "paragraph", attrs: { blockId: "r", removed: true }, content: [{ type: "text", text: "[Content removed]" }] },
    {
      type: "table",
      attrs: { blockId: "t" },
      content: [{ type: "tableRow", content: [{ type: "tableHeader", content: [{ type: "paragraph", content: [{ type: "text", text: "City" }] }] }] }],
    },
  ],
});

describe("DocumentView", () => {
  it("marks a stale block with a word diff of its source, and only that block", () => {
    const html = renderToStaticMarkup(
      <DocumentView content={doc} staleDetails={new Map([["p", { before: "They cost 30 EUR.", after: "They cost 50 EUR." }]])} />,
    );
    expect(html.match(/data-stale="true"/g)).toHaveLength(1);
    expect(html).toContain('data-block-id="p" data-stale="true"');
    expect(html).toContain("<del>30</del>");
    expect(html).toContain("<ins>50</ins>");
    expect(html).toContain('data-source-change="diff"');
  });

  it("shows the source now when the earlier wording is unknown", () => {
    const html = renderToStaticMarkup(<DocumentView content={doc} staleDetails={new Map([["p", { before: null, after: "They cost 50 EUR." }]])} />);
    expect(html).toContain('data-source-change="now"');
    expect(html).not.toContain("<ins>");
    expect(html).toContain("They cost 50 EUR.");
  });

  it("renders removed blocks as the placeholder and tables as tables", () => {
    const html = renderToStaticMarkup(<DocumentView content={doc} />);
    expect(html).toContain('<p class="removed">[Content removed]</p>');
    expect(html).toContain('<th scope="col"><p><span>City</span></p></th>');
    expect(html).not.toContain("data-stale");
  });
});
