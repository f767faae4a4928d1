import { describe, expect, it } from "vitest";
import { barsOf, chartColumns } from "./chart";

describe("report bars", () => {
  const columns = [
    { name: "appId", type: "string" },
    { name: "appName", type: "string" },
    { name: "reasonCode", type: "string" },
    { name: "title", type: "string" },
    { name: "blocked", type: "integer" },
  ];
  it("charts docs-blocked by its reason code and its count", () => {
    expect(chartColumns(columns)).toEqual({ label: 2, value: 4 });
  });
  it("charts by title when there is no reason code", () => {
    const byTitle = columns.filter((c) => c.name !== "reasonCode");
    expect(chartColumns(byTitle)).toEqual({ label: 2, value: 3 });
  });
  it("sums rows with the same label, largest first, nulls named", () => {
    const rows = [
      [null, null, "Doc A", 2],
      [null, null, "Doc A", 3],
      [null, null, null, 7],
      [null, null, "Doc B", 1],
    ];
    const byTitle = columns.filter((c) => c.name !== "reasonCode");
    expect(barsOf(byTitle, rows, "(none)")).toEqual([
      { label: "(none)", value: 7 },
      { label: "Doc A", value: 5 },
      { label: "Doc B", value: 1 },
    ]);
    expect(barsOf(byTitle, rows, "-", 1)).toHaveLength(1);
  });
  it("has nothing to chart without a number", () => {
    expect(chartColumns([{ name: "x", type: "string" }])).toBeNull();
    expect(barsOf([{ name: "x", type: "string" }], [["a"]], "-")).toEqual([]);
  });
  it("falls back to the first string and integer columns", () => {
    expect(chartColumns([{ name: "k", type: "string" }, { name: "n", type: "integer" }])).toEqual({ label: 0, value: 1 });
  });
});
