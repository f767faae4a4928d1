import { describe, expect, it } from "vitest";
import { filenameFromDisposition, reportFileName, utcDay, withQuery } from "./api";

describe("filenameFromDisposition", () => {
  it("reads quoted and bare names", () => {
    expect(filenameFromDisposition('attachment; filename="credence-docs-blocked-2030-01-01-to-2030-01-30.csv"')).toBe(
      "credence-docs-blocked-2030-01-01-to-2030-01-30.csv",
    );
    expect(filenameFromDisposition("attachment; filename=report.json")).toBe("report.json");
  });
  it("prefers filename* (UTF-8)", () => {
    expect(filenameFromDisposition("attachment; filename=\"a.csv\"; filename*=UTF-8''informe%20%C3%B1.csv")).toBe("informe ñ.csv");
  });
  it("drops path separators and leading dots", () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe("_.._etc_passwd");
    expect(filenameFromDisposition('attachment; filename="..."')).toBeNull();
  });
  it("answers null without a name", () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition("inline")).toBeNull();
  });
});

describe("report file names", () => {
  it("follow the server's pattern", () => {
    expect(reportFileName("docs-blocked", "2030-01-01", "2030-01-30", null, "csv")).toBe(
      "credence-docs-blocked-2030-01-01-to-2030-01-30.csv",
    );
    expect(reportFileName("k", "a", "b", "id1", "json")).toBe("credence-k-a-to-b-app-id1.json");
  });
});

describe("utcDay and withQuery", () => {
  it("counts UTC days", () => {
    const now = new Date("2030-03-01T23:30:00Z");
    expect(utcDay(now)).toBe("2030-03-01");
    expect(utcDay(now, -29)).toBe("2030-01-31");
  });
  it("leaves out empty query values", () => {
    expect(withQuery("/x", { a: "1", b: "", c: undefined, d: "a b" })).toBe("/x?a=1&d=a+b");
    expect(withQuery("/x", {})).toBe("/x");
  });
});
