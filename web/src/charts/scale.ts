// The geometry of the client's hand-written SVG charts (BarChart,
// StackedBars): pure, tested in scale.test.ts.

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

export interface Segment {
  key: string;
  value: number;
  x: number;
  width: number;
}

// Lays the values of one stacked bar side by side over `width` pixels for an
// axis of `max`: zero values take no room, and the segments never pass the
// bar's end.
export function stack(values: { key: string; value: number }[], max: number, width: number): Segment[] {
  const out: Segment[] = [];
  let x = 0;
  for (const { key, value } of values) {
    if (!(value > 0)) continue;
    const w = Math.min((value / max) * width, width - x);
    out.push({ key, value, x, width: w });
    x += w;
  }
  return out;
}

// A label cut to `max` characters with an ellipsis.
export function shorten(label: string, max: number): string {
  return label.length <= max ? label : label.slice(0, Math.max(1, max - 1)) + "…";
}
