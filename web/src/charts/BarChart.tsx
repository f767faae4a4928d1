// A horizontal bar chart in hand-written SVG (no chart library: bundle size,
// and the CSP allows no inline styles; colours come from charts.css). An
// image with a title and a description listing every value; pages show the
// same numbers in a table beside it.
import { useId } from "react";
import "./charts.css";
import { niceScale, scale, shorten, type Bar } from "./scale";

const width = 640;
const labelWidth = 200;
const barHeight = 22;
const gap = 8;
const top = 8;
const axisHeight = 28;

export function BarChart({ bars, title, caption }: { bars: Bar[]; title: string; caption?: string }) {
  const id = useId();
  const axis = niceScale(Math.max(0, ...bars.map((b) => b.value)));
  const plot = width - labelWidth - 40;
  const height = top + bars.length * (barHeight + gap) + axisHeight;
  const format = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
  return (
    <figure className="chart bar-chart" data-chart={title} data-bars={bars.length}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMinYMin meet">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{bars.map((b) => `${b.label}: ${format(b.value)}`).join("; ")}</desc>
        {axis.ticks.map((t) => {
          const x = labelWidth + scale(t, axis.max, plot);
          return (
            <g key={t} className="tick">
              <line x1={x} x2={x} y1={top - 4} y2={height - axisHeight + 4} />
              <text x={x} y={height - 8} textAnchor="middle">
                {format(t)}
              </text>
            </g>
          );
        })}
        {bars.map((b, i) => {
          const y = top + i * (barHeight + gap);
          const w = scale(b.value, axis.max, plot);
          return (
            <g key={`${b.label}-${i}`} className="bar" data-label={b.label} data-value={b.value}>
              <text x={labelWidth - 8} y={y + barHeight / 2} textAnchor="end" dominantBaseline="middle">
                {shorten(b.label, 28)}
              </text>
              <rect x={labelWidth} y={y} width={Math.max(w, b.value > 0 ? 2 : 0)} height={barHeight} rx={2} />
              <text x={labelWidth + w + 6} y={y + barHeight / 2} dominantBaseline="middle" className="value">
                {format(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>{caption ?? title}</figcaption>
    </figure>
  );
}
