// Which columns a report is charted by, and its bars (src/charts draws
// them).
import type { Bar } from "../../charts/scale";

export interface Column {
  name: string;
  type: string;
}

const labelPreference = ["classification", "reasonCode", "title", "appName", "channel", "sourceId", "entryId"];
const valuePreference = ["blocked", "decisions", "uses", "documents", "evaluations", "sources"];

// The label column and the value column a report is charted by, or null
// when it has no number to chart.
export function chartColumns(columns: Column[]): { label: number; value: number } | null {
  const index = (name: string) => columns.findIndex((c) => c.name === name);
  const numeric = (i: number) => i >= 0 && (columns[i].type === "integer" || columns[i].type === "number");
  let value = valuePreference.map(index).find(numeric) ?? -1;
  if (value < 0) value = columns.findIndex((c) => c.type === "integer");
  if (value < 0) return null;
  let label = labelPreference.map(index).find((i) => i >= 0) ?? -1;
  if (label < 0) label = columns.findIndex((c) => c.type === "string");
  return { label, value };
}

// One bar per label (rows with the same label summed), largest first, at
// most `limit`; a null label is shown as `none`.
export function barsOf(columns: Column[], rows: unknown[][], none: string, limit = 15): Bar[] {
  const pick = chartColumns(columns);
  if (!pick) return [];
  const sums = new Map<string, number>();
  for (const row of rows) {
    const raw = pick.label >= 0 ? row[pick.label] : null;
    const label = raw === null || raw === undefined || raw === "" ? none : String(raw);
    const v = Number(row[pick.value] ?? 0);
    sums.set(label, (sums.get(label) ?? 0) + (Number.isFinite(v) ? v : 0));
  }
  return [...sums.entries()]
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label))
    .slice(0, limit);
}
