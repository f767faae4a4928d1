// Pure logic of the reports' bar chart (BarChart.tsx): which columns a
// report is charted by, and the scale of the value axis.

export interface Column {
  name: string;
  type: string;
}
export interface Bar {
  label: string;
  value: number;
}

// Round numbers for an axis: the smallest of 1, 2, 2.5, 5 x 10^n at or
// above `max / ticks` is the step; the axis ends at the first step at or
// above `max`. A max of 0 (or less, or not finite) gives the axis 0..1.
export function niceScale(max: number, ticks = 5): { max: number; step: number; ticks: number[] } {
  if (!Number.isFinite(max) || max <= 0) return { max: 1, step: 1, ticks: [0, 1] };
  const rough = max / ticks;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  let step = power;
  for (const m of [1, 2, 2.5, 5, 10]) {
    step = m * power;
    if (step >= rough) break;
  }
  // Counts never need fractional ticks.
  if (step < 1 && Number.isInteger(max)) step = 1;
  const top = Math.ceil(max / step - 1e-9) * step;
  const values: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) values.push(Number(v.toFixed(10)));
  return { max: values[values.length - 1], step, ticks: values };
}

// Where a value lands on an axis of `length` pixels (0 at the start).
export function scale(value: number, axisMax: number, length: number): number {
  if (axisMax <= 0 || !Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(length, (value / axisMax) * length));
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

// A label cut to `max` characters with an ellipsis.
export function shorten(label: string, max: number): string {
  return label.length <= max ? label : label.slice(0, Math.max(1, max - 1)) + "…";
}
