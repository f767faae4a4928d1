// Hand-written SVG bar charts (no chart library: bundle size, and the CSP
// allows no inline styles). Each chart is an image with a caption; the
// numbers are also in a table beside it on every page that uses one.
import { useId } from "react";
import { clip, niceMax, stack } from "./chartMath";

const WIDTH = 640;
const LABEL = 180;
const ROW = 26;
const BAR = 18;
const PLOT = WIDTH - LABEL - 50;

export function BarChart({ title, items }: { title: string; items: { label: string; value: number }[] }) {
  const id = useId();
  const max = niceMax(Math.max(0, ...items.map((i) => i.value)));
  const height = items.length * ROW + 24;
  return (
    <figure className="chart" data-chart={title}>
      <figcaption id={id}>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={id}>
        {items.map((item, i) => {
          const y = i * ROW + 4;
          const w = (item.value / max) * PLOT;
          return (
            <g key={`${item.label}-${i}`}>
              <title>{`${item.label}: ${item.value}`}</title>
              <text x={LABEL - 8} y={y + BAR - 4} textAnchor="end">
                {clip(item.label, 26)}
              </text>
              <rect className="bar" x={LABEL} y={y} width={Math.max(w, item.value > 0 ? 2 : 0)} height={BAR} rx={2} />
              <text x={LABEL + w + 6} y={y + BAR - 4}>
                {item.value}
              </text>
            </g>
          );
        })}
        <line className="axis" x1={LABEL} x2={LABEL} y1={0} y2={height - 20} />
        <text x={LABEL} y={height - 4}>
          0
        </text>
        <text x={LABEL + PLOT} y={height - 4} textAnchor="end">
          {max}
        </text>
      </svg>
    </figure>
  );
}

export const STATES = ["draft", "published", "expiringSoon", "warning", "expired"] as const;
export type StateKey = (typeof STATES)[number];

export function StackedBars({
  title,
  items,
  names,
}: {
  title: string;
  items: { label: string; counts: Record<StateKey, number> }[];
  names: Record<StateKey, string>;
}) {
  const id = useId();
  const max = niceMax(Math.max(0, ...items.map((i) => STATES.reduce((n, k) => n + i.counts[k], 0))));
  const height = items.length * ROW + 24;
  return (
    <figure className="chart" data-chart={title}>
      <figcaption id={id}>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={id}>
        {items.map((item, i) => {
          const y = i * ROW + 4;
          const segments = stack(
            STATES.map((k) => ({ key: k, value: item.counts[k] })),
            max,
            PLOT,
          );
          const total = STATES.reduce((n, k) => n + item.counts[k], 0);
          const end = segments.length ? segments[segments.length - 1].x + segments[segments.length - 1].width : 0;
          return (
            <g key={`${item.label}-${i}`}>
              <text x={LABEL - 8} y={y + BAR - 4} textAnchor="end">
                {clip(item.label, 26)}
              </text>
              {segments.map((seg) => (
                <rect key={seg.key} className={`seg-${seg.key}`} x={LABEL + seg.x} y={y} width={seg.width} height={BAR}>
                  <title>{`${item.label}: ${names[seg.key as StateKey]} ${seg.value}`}</title>
                </rect>
              ))}
              <text x={LABEL + end + 6} y={y + BAR - 4}>
                {total}
              </text>
            </g>
          );
        })}
        <line className="axis" x1={LABEL} x2={LABEL} y1={0} y2={height - 20} />
        <text x={LABEL} y={height - 4}>
          0
        </text>
        <text x={LABEL + PLOT} y={height - 4} textAnchor="end">
          {max}
        </text>
      </svg>
      <ul className="legend">
        {STATES.map((k) => (
          <li key={k}>
            <span className={`swatch seg-${k}`} aria-hidden="true" />
            {names[k]}
          </li>
        ))}
      </ul>
    </figure>
  );
}
