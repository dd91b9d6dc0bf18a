import { scaleBand, scaleLinear } from "d3-scale";
import { useId } from "react";

import type { Letter } from "~/domain/grader";

const LETTER_FILL: Record<Letter, string> = { A: "#15803d", B: "#4d7c0f", C: "#b45309", D: "#c2410c", F: "#b91c1c" };

export interface ChartArea {
  key: string;
  label: string;
  score: number;
  grade: Letter;
}

/**
 * The area scores as a horizontal bar chart, plain SVG: rendered on the server, no JavaScript needed.
 * `compact`: a narrower drawing for phones, so that its text is not scaled down to a few pixels.
 */
export function AreaChart({ areas, title, compact = false, className }: { areas: ChartArea[]; title: string; compact?: boolean; className?: string }) {
  const titleId = useId();
  const width = compact ? 330 : 560;
  const labelWidth = compact ? 112 : 150;
  const height = areas.length * 44 + 24;
  const x = scaleLinear()
    .domain([0, 100])
    .range([labelWidth, width - 56]);
  const y = scaleBand<string>()
    .domain(areas.map((a) => a.key))
    .range([8, height - 16])
    .paddingInner(0.35);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} className={`h-auto w-full max-w-xl ${className ?? ""}`}>
      <title id={titleId}>{title}</title>
      {x.ticks(4).map((tick) => (
        <g key={tick}>
          <line x1={x(tick)} x2={x(tick)} y1={4} y2={height - 14} stroke="#e2e8f0" />
          <text x={x(tick)} y={height - 2} textAnchor="middle" fontSize="11" fill="#64748b">
            {tick}
          </text>
        </g>
      ))}
      {areas.map((area) => {
        const top = y(area.key) ?? 0;
        const band = y.bandwidth();
        return (
          <g key={area.key}>
            <text x={labelWidth - 10} y={top + band / 2} dominantBaseline="middle" textAnchor="end" fontSize={compact ? 13 : 14} fill="#0f172a">
              {area.label}
            </text>
            <rect x={x(0)} y={top} width={x(100) - x(0)} height={band} rx={6} fill="#f1f5f9" />
            <rect x={x(0)} y={top} width={Math.max(0, x(area.score) - x(0))} height={band} rx={6} fill={LETTER_FILL[area.grade]} />
            <text x={x(100) + 8} y={top + band / 2} dominantBaseline="middle" fontSize={compact ? 13 : 14} fontWeight="700" fill="#0f172a">
              {area.score} {area.grade}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
