import { describe, expect, it } from "vitest";
import { Problem } from "../../api/client";
import { changeErrors, changeLines, movesText, whatIfRequestOf, type ComposedChange, type SettingWords } from "./whatIf";

const words: SettingWords = {
  labels: { aiRetrievable: "AI may retrieve", maxReviewAgeDays: "Max review age", maxSensitivityForAi: "Highest", disclaimerText: "Disclaimer" },
  sensitivity: { Confidential: "Confidential" },
  yes: "Yes",
  no: "No",
  noDisclaimer: "No disclaimer",
  policyRemoved: "override removed",
  factsRemoved: "facts removed",
  hasSecrets: "Secrets",
  hasPersonalData: "Personal data",
  classification: "Classification",
};

describe("what-if request", () => {
  const hub: ComposedChange = { change: { target: "hub-policy", hubKey: "ops", policy: { aiRetrievable: false } }, label: "Operations" };
  const facts: ComposedChange = { change: { target: "sensitivity", sourceId: "entry:1", sensitivity: null }, label: "entry:1" };

  it("sends the changes in order, and only the window and filters that are set", () => {
    expect(whatIfRequestOf([hub, facts], { from: "2026-11-01", to: " 2026-11-28 ", appId: "", channel: "  " })).toEqual({
      changes: [
        { target: "hub-policy", hubKey: "ops", policy: { aiRetrievable: false } },
        { target: "sensitivity", sourceId: "entry:1", sensitivity: null },
      ],
      from: "2026-11-01",
      to: "2026-11-28",
    });
    expect(whatIfRequestOf([hub], { from: "", to: "", appId: "a1", channel: "support" })).toEqual({
      changes: [hub.change],
      appId: "a1",
      channel: "support",
    });
  });

  it("describes what a change sets", () => {
    expect(changeLines(hub.change, words)).toEqual(["AI may retrieve: No"]);
    expect(changeLines({ target: "tenant-policy", policy: {} }, words)).toEqual(["override removed"]);
    expect(changeLines({ target: "app-policy", appId: "a", defaultPolicy: { maxReviewAgeDays: 90, disclaimerText: null } }, words)).toEqual([
      "Max review age: 90",
      "Disclaimer: No disclaimer",
    ]);
    expect(changeLines(facts.change, words)).toEqual(["facts removed"]);
    expect(
      changeLines({ target: "sensitivity", sourceId: "entry:1", sensitivity: { classification: "Confidential", hasSecrets: true, hasPersonalData: false } }, words),
    ).toEqual(["Classification: Confidential", "Secrets: Yes", "Personal data: No"]);
  });

  it("finds one change's field errors, named within it", () => {
    const problem = new Problem(400, "Invalid", "", "validation_failed", [
      { field: "changes[0].hubKey", message: "no such hub" },
      { field: "changes[1].policy.maxReviewAgeDays", message: "too large" },
      { field: "changes[10].hubKey", message: "other" },
      { field: "from", message: "bad date" },
    ]);
    expect(changeErrors(problem, 0)).toEqual([{ field: "hubKey", message: "no such hub" }]);
    expect(changeErrors(problem, 1)).toEqual([{ field: "policy.maxReviewAgeDays", message: "too large" }]);
    expect(changeErrors(new Error("x"), 0)).toEqual([]);
  });

  it("writes moves as text", () => {
    expect(movesText([{ from: "allow", to: "block", decisions: 3 }], { allow: "Allow", block: "Block" })).toBe("Allow → Block: 3");
  });
});
