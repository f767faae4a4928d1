import { describe, expect, it } from "vitest";
import { barsOf, chartColumns, niceScale, scale, shorten } from "./chart";

describe("niceScale", () => {
  it("rounds the axis up to a nice step", () => {
    expect(niceScale(7)).toEqual({ max: 8, step: 2, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(100).max).toBe(100);
    expect(niceScale(101).max).toBe(125);
    expect(niceScale(3)).toEqual({ max: 3, step: 1, ticks: [0, 1, 2, 3] });
    expect(niceScale(1).ticks).toEqual([0, 1]);
  });
  it("keeps fractions for shares", () => {
    const s = niceScale(0.37);
    expect(s.step).toBeCloseTo(0.1);
    expect(s.max).toBeCloseTo(0.4);
  });
  it("gives an empty or broken series the axis 0..1", () => {
    expect(niceScale(0)).toEqual({ max: 1, step: 1, ticks: [0, 1] });
    expect(niceScale(Number.NaN).max).toBe(1);
    expect(niceScale(-4).max).toBe(1);
  });
});

describe("scale", () => {
  it("maps values onto the axis and clamps", () => {
    expect(scale(5, 10, 200)).toBe(100);
    expect(scale(20, 10, 200)).toBe(200);
    expect(scale(-1, 10, 200)).toBe(0);
    expect(scale(3, 0, 200)).toBe(0);
  });
});

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
  it("shortens long labels", () => {
    expect(shorten("abcdef", 4)).toBe("abc…");
    expect(shorten("abc", 4)).toBe("abc");
  });
});
