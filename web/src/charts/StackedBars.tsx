// Bars made of segments, one per key, in hand-written SVG (charts.css
// colours each seg-<key>), with a legend.
import { useId } from "react";
import "./charts.css";
import { niceScale, shorten, stack } from "./scale";

const WIDTH = 640;
const LABEL = 180;
const ROW = 26;
const BAR = 18;
const PLOT = WIDTH - LABEL - 50;

export function StackedBars<K extends string>({
  title,
  keys,
  items,
  names,
}: {
  title: string;
  // The segments, in order; each gets the class seg-<key> (charts.css).
  keys: readonly K[];
  items: { label: string; counts: Record<K, number> }[];
  names: Record<K, string>;
}) {
  const id = useId();
  const max = niceScale(Math.max(0, ...items.map((i) => keys.reduce((n, k) => n + i.counts[k], 0)))).max;
  const height = items.length * ROW + 24;
  return (
    <figure className="chart" data-chart={title}>
      <figcaption id={id}>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={id}>
        {items.map((item, i) => {
          const y = i * ROW + 4;
          const segments = stack(
            keys.map((k) => ({ key: k, value: item.counts[k] })),
            max,
            PLOT,
          );
          const total = keys.reduce((n, k) => n + item.counts[k], 0);
          const end = segments.length ? segments[segments.length - 1].x + segments[segments.length - 1].width : 0;
          return (
            <g key={`${item.label}-${i}`}>
              <text x={LABEL - 8} y={y + BAR - 4} textAnchor="end">
                {shorten(item.label, 26)}
              </text>
              {segments.map((seg) => (
                <rect key={seg.key} className={`seg-${seg.key}`} x={LABEL + seg.x} y={y} width={seg.width} height={BAR}>
                  <title>{`${item.label}: ${names[seg.key as K]} ${seg.value}`}</title>
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
        {keys.map((k) => (
          <li key={k}>
            <span className={`swatch seg-${k}`} aria-hidden="true" />
            {names[k]}
          </li>
        ))}
      </ul>
    </figure>
  );
}
