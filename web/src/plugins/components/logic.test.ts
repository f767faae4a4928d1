import { describe, expect, it } from "vitest";
import { fromFormValues, toFormValues, type FieldDef } from "./common";
import { checkRules, mergeRules } from "./contentRulesCheck";
import { safeDeleteReady } from "./safeDelete";

const doc = (blocks: object[]) => JSON.stringify({ type: "doc", content: blocks });
const heading = (text: string) => ({ type: "heading", attrs: { level: 2 }, content: [{ type: "text", text }] });
const para = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

describe("content rules, checked in the client", () => {
  it("checks title and text length, forbidden terms, headings and translations as the server's guard does", () => {
    const entry = { title: "VPN setup", content: doc([heading(" Summary "), para("Use the internal only VPN.")]) };
    const results = checkRules(
      entry,
      {
        maxTitleLength: 5,
        maxTextLength: 100,
        forbiddenTerms: ["Internal Only", "secret"],
        requiredHeadings: ["summary", "Owner"],
        requiredTranslations: ["de", "es"],
      },
      [{ language: "es", status: "UpToDate" }, { language: "de", status: "Stale" }],
    );
    expect(results).toEqual([
      { rule: "maxTitleLength", ok: false, detail: "9/5" },
      { rule: "maxTextLength", ok: true, detail: `${9 + 9 + 26}/100` },
      { rule: "forbiddenTerms", ok: false, detail: "Internal Only" },
      { rule: "requiredHeadings", ok: false, detail: "Owner" },
      { rule: "requiredTranslations", ok: false, detail: "de (Stale)" },
    ]);
  });

  it("0 or absent means no limit; nothing to check answers no results", () => {
    expect(checkRules({ title: "x", content: "" }, { maxTitleLength: 0 }, [])).toEqual([]);
  });

  it("a hub's rules tighten the tenant's (MergeRules)", () => {
    const merged = mergeRules(
      { forbiddenTerms: ["a"], requiredHeadings: ["Summary"], maxTitleLength: 100, maxTextLength: 0 },
      { forbiddenTerms: ["b", "a"], maxTitleLength: 50, maxTextLength: 1000 },
    );
    expect(merged.forbiddenTerms).toEqual(["a", "b"]);
    expect(merged.requiredHeadings).toEqual(["Summary"]);
    expect(merged.maxTitleLength).toBe(50);
    expect(merged.maxTextLength).toBe(1000);
    expect(mergeRules({ maxTitleLength: 7 }, null)).toEqual({ maxTitleLength: 7 });
  });
});

describe("settings forms", () => {
  const fields: FieldDef[] = [
    { name: "terms", kind: "list", label: "" },
    { name: "max", kind: "int", label: "" },
    { name: "on", kind: "bool", label: "" },
    { name: "mode", kind: "select", label: "" },
  ];
  it("round-trip settings through the form's values", () => {
    const values = toFormValues(fields, { terms: ["a", "b"], max: 5, on: true, mode: "deny" });
    expect(values).toEqual({ terms: "a\nb", max: "5", on: true, mode: "deny" });
    expect(fromFormValues(fields, values)).toEqual({ terms: ["a", "b"], max: 5, on: true, mode: "deny" });
  });
  it("drop blank lines, leave empty numbers and selects out, send a non-number as typed for the server to name", () => {
    expect(fromFormValues(fields, { terms: " a \n\n b\n", max: "", on: false, mode: "" })).toEqual({ terms: ["a", "b"], on: false });
    expect(fromFormValues(fields, { terms: "", max: "12x", on: false, mode: "" })).toEqual({ terms: [], max: "12x", on: false });
  });
});

describe("safe delete's rule", () => {
  it("releases the delete once the key matches and a reason is given", () => {
    expect(safeDeleteReady("", "expenses", "")).toBe(false);
    expect(safeDeleteReady("expenses", "expenses", "  ")).toBe(false);
    expect(safeDeleteReady("expense", "expenses", "old")).toBe(false);
    expect(safeDeleteReady(" expenses ", "expenses", "superseded")).toBe(true);
  });
});
