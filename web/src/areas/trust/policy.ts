// A policy override as a form: every field either inherited (not sent) or
// set at this level (docs/trust-admin.md, "Policies").
import type { Effective, Policy } from "./api";

export const booleanFields = [
  "aiRetrievable",
  "customerFacingAllowed",
  "internalOnly",
  "externalModelAllowed",
  "customerFacingRequiresReview",
  "citationRequired",
  "warnOnPersonalData",
] as const;
export const dayFields = ["warnBeforeExpiryDays", "maxReviewAgeDays"] as const;
export const sensitivities = ["Public", "Internal", "Confidential", "Restricted"] as const;

type BooleanField = (typeof booleanFields)[number];
type DayField = (typeof dayFields)[number];

// "" inherits; booleans "true"/"false"; days as typed; the disclaimer is
// "" (inherit), "none" (no disclaimer, clears a lower level's) or "text".
export type PolicyDraft = Record<BooleanField, "" | "true" | "false"> &
  Record<DayField, string> & {
    maxSensitivityForAi: "" | (typeof sensitivities)[number];
    disclaimer: "" | "none" | "text";
    disclaimerText: string;
  };

export function draftOf(policy: Policy | undefined): PolicyDraft {
  const p = policy ?? {};
  const draft = {} as PolicyDraft;
  for (const f of booleanFields) draft[f] = p[f] === undefined || p[f] === null ? "" : p[f] ? "true" : "false";
  for (const f of dayFields) draft[f] = p[f] === undefined || p[f] === null ? "" : String(p[f]);
  draft.maxSensitivityForAi = p.maxSensitivityForAi ?? "";
  if (!("disclaimerText" in p) || p.disclaimerText === undefined) {
    draft.disclaimer = "";
    draft.disclaimerText = "";
  } else if (p.disclaimerText === null || p.disclaimerText === "") {
    draft.disclaimer = "none";
    draft.disclaimerText = "";
  } else {
    draft.disclaimer = "text";
    draft.disclaimerText = p.disclaimerText;
  }
  return draft;
}

// The override to send. Days are sent as typed when they are not whole
// numbers, so the server names the field (the form shows its message).
export function policyOf(draft: PolicyDraft): Policy {
  const p: Record<string, unknown> = {};
  for (const f of booleanFields) if (draft[f] !== "") p[f] = draft[f] === "true";
  for (const f of dayFields) {
    const text = draft[f].trim();
    if (text === "") continue;
    p[f] = /^-?\d+$/.test(text) ? Number(text) : text;
  }
  if (draft.maxSensitivityForAi) p.maxSensitivityForAi = draft.maxSensitivityForAi;
  if (draft.disclaimer === "none") p.disclaimerText = null;
  if (draft.disclaimer === "text") p.disclaimerText = draft.disclaimerText;
  return p as Policy;
}

export function effectiveText(effective: Effective | undefined, field: keyof Effective, yes: string, no: string, none: string): string {
  if (!effective) return "";
  const v = effective[field];
  if (v === null || v === undefined || v === "") return none;
  if (typeof v === "boolean") return v ? yes : no;
  return String(v);
}
