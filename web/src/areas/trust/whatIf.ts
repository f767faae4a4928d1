// The what-if page's pure parts (docs/what-if.md): the request made of the
// composed changes and the window, a change's settings as short lines, and
// the server's field errors of one change.
import { fieldErrors, type FieldError, type Policy, type WhatIfChange, type WhatIfRequest } from "./api";
import { booleanFields, dayFields } from "./policy";

export const whatIfTargets = ["tenant-policy", "hub-policy", "source-policy", "app-policy", "sensitivity"] as const;

// A change as composed: what is sent, and the name of what it changes as
// the page shows it (a hub's or an app's name, a source id).
export interface ComposedChange {
  change: WhatIfChange;
  label: string;
}

export interface WhatIfWindow {
  from: string;
  to: string;
  appId: string;
  channel: string;
}

// The body of POST /trust-admin/what-if: the changes in the order they were
// added; empty window fields and filters left out (the server's defaults).
export function whatIfRequestOf(changes: readonly ComposedChange[], window: WhatIfWindow): WhatIfRequest {
  const body: WhatIfRequest = { changes: changes.map((c) => c.change) };
  const from = window.from.trim();
  const to = window.to.trim();
  const appId = window.appId.trim();
  const channel = window.channel.trim();
  if (from) body.from = from;
  if (to) body.to = to;
  if (appId) body.appId = appId;
  if (channel) body.channel = channel;
  return body;
}

export interface SettingWords {
  labels: Record<string, string>;
  sensitivity: Record<string, string>;
  yes: string;
  no: string;
  noDisclaimer: string;
  policyRemoved: string;
  factsRemoved: string;
  hasSecrets: string;
  hasPersonalData: string;
  classification: string;
}

// What a change sets, one "setting: value" line each ("override removed"
// for {} and "facts removed" for a null sensitivity).
export function changeLines(change: WhatIfChange, w: SettingWords): string[] {
  if (change.target === "sensitivity") {
    const f = change.sensitivity;
    if (!f) return [w.factsRemoved];
    return [
      `${w.classification}: ${w.sensitivity[f.classification] ?? f.classification}`,
      `${w.hasSecrets}: ${f.hasSecrets ? w.yes : w.no}`,
      `${w.hasPersonalData}: ${f.hasPersonalData ? w.yes : w.no}`,
    ];
  }
  const policy = (change.target === "app-policy" ? change.defaultPolicy : change.policy) as Policy | undefined;
  const p = (policy ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  for (const f of booleanFields) if (typeof p[f] === "boolean") lines.push(`${w.labels[f] ?? f}: ${p[f] ? w.yes : w.no}`);
  if (typeof p.maxSensitivityForAi === "string")
    lines.push(`${w.labels.maxSensitivityForAi ?? "maxSensitivityForAi"}: ${w.sensitivity[p.maxSensitivityForAi] ?? p.maxSensitivityForAi}`);
  for (const f of dayFields) if (p[f] !== undefined && p[f] !== null) lines.push(`${w.labels[f] ?? f}: ${String(p[f])}`);
  if ("disclaimerText" in p && p.disclaimerText !== undefined)
    lines.push(`${w.labels.disclaimerText ?? "disclaimerText"}: ${p.disclaimerText ? `“${String(p.disclaimerText)}”` : w.noDisclaimer}`);
  return lines.length ? lines : [w.policyRemoved];
}

// The field errors of change `index` (`changes[2].hubKey`,
// `changes[0].policy.maxReviewAgeDays`), named within the change.
export function changeErrors(error: unknown, index: number): FieldError[] {
  const prefix = `changes[${index}]`;
  return fieldErrors(error)
    .filter((e) => e.field === prefix || e.field.startsWith(prefix + "."))
    .map((e) => ({ field: e.field.slice(prefix.length + 1), message: e.message }));
}

// Moves as short text: "allow → block: 3, warn → block: 1".
export function movesText(moves: readonly { from: string; to: string; decisions: number }[], verdicts: Record<string, string>): string {
  return moves.map((m) => `${verdicts[m.from] ?? m.from} → ${verdicts[m.to] ?? m.to}: ${m.decisions}`).join(", ");
}
