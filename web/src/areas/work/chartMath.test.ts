import { describe, expect, it } from "vitest";
import { clip, niceMax, stack } from "./chartMath";

describe("niceMax", () => {
  it("rounds up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 10, 11, 99, 120, 5000].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 100, 200, 5000]);
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

describe("clip", () => {
  it("keeps short labels and shortens long ones", () => {
    expect(clip("Docs", 10)).toBe("Docs");
    expect(clip("A very long hub name", 8)).toBe("A very …");
  });
});
