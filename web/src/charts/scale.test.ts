import { describe, expect, it } from "vitest";
import { niceScale, scale, shorten, stack } from "./scale";

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

describe("stack", () => {
  it("places segments end to end, skipping zeros", () => {
    const s = stack([{ key: "a", value: 2 }, { key: "b", value: 0 }, { key: "c", value: 3 }], 10, 100);
    expect(s).toEqual([
      { key: "a", value: 2, x: 0, width: 20 },
      { key: "c", value: 3, x: 20, width: 30 },
    ]);
  });
  it("never passes the end of the bar", () => {
    const s = stack([{ key: "a", value: 8 }, { key: "b", value: 8 }], 10, 100);
    expect(s[1].x + s[1].width).toBe(100);
  });
});

describe("shorten", () => {
  it("shortens long labels", () => {
    expect(shorten("abcdef", 4)).toBe("abc…");
    expect(shorten("abc", 4)).toBe("abc");
  });
});
