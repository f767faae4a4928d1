import { describe, expect, it } from "vitest";
import { draftOf, policyOf } from "./policy";

describe("policy drafts", () => {
  it("an empty override inherits everything and sends {}", () => {
    const d = draftOf({});
    expect(d.aiRetrievable).toBe("");
    expect(d.disclaimer).toBe("");
    expect(policyOf(d)).toEqual({});
  });
  it("round-trips a stored override", () => {
    const p = { internalOnly: true, aiRetrievable: false, maxReviewAgeDays: 90, maxSensitivityForAi: "Confidential" as const, disclaimerText: "AI" };
    expect(policyOf(draftOf(p))).toEqual(p);
  });
  it("keeps 'no disclaimer' apart from 'inherit'", () => {
    expect(draftOf({ disclaimerText: null }).disclaimer).toBe("none");
    expect(policyOf(draftOf({ disclaimerText: null }))).toEqual({ disclaimerText: null });
  });
  it("sends days that are not whole numbers as typed, for the server to name", () => {
    const d = { ...draftOf({}), warnBeforeExpiryDays: "1.5", maxReviewAgeDays: " 30 " };
    expect(policyOf(d)).toEqual({ warnBeforeExpiryDays: "1.5", maxReviewAgeDays: 30 });
  });
});
