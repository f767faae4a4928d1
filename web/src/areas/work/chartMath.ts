// Geometry of the hand-written SVG bar charts (charts.tsx): pure, tested in
// chartMath.test.ts.

// A "nice" axis maximum at or above `max` (1, 2 or 5 times a power of ten),
// so ticks fall on round numbers; 1 for an empty chart.
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(max)));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
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

// Shortens a label to `chars` characters with an ellipsis.
export function clip(label: string, chars: number): string {
  return label.length <= chars ? label : label.slice(0, Math.max(1, chars - 1)) + "…";
}
