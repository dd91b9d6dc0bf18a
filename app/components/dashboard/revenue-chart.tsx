import { scaleBand, scaleLinear } from "d3-scale";
import { line } from "d3-shape";

import { compactDollars, roundTicks } from "~/domain/chart";
import { formatCents } from "~/domain/format";

export interface RevenueChartMonth {
  month: string;
  revenueCents: number;
  orders: number;
  renewals: number;
}

interface Layout {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  fontSize: number;
  /** Every how many months a month's name is written under its bar (the newest month always is). */
  labelEvery: number;
}
const FULL: Layout = { width: 720, height: 260, margin: { top: 16, right: 44, bottom: 32, left: 64 }, fontSize: 11, labelEvery: 1 };
const COMPACT: Layout = { width: 360, height: 230, margin: { top: 12, right: 26, bottom: 30, left: 48 }, fontSize: 12, labelEvery: 3 };
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const label = (month: string) => {
  const [year, index] = month.split("-");
  return `${MONTH_NAMES[Number(index) - 1]} ${year.slice(2)}`;
};

/**
 * Revenue (bars, left axis) and orders (line, right axis) per month: plain SVG rendered on the
 * server with d3-scale and d3-shape (docs/decisions/091), so it shows without JavaScript. The
 * same figures follow as a table for screen readers.
 */
export function RevenueChart({ months }: { months: RevenueChartMonth[] }) {
  const totalCents = months.reduce((sum, m) => sum + m.revenueCents, 0);
  const empty = months.every((m) => m.revenueCents === 0 && m.orders === 0);
  return (
    <section aria-labelledby="revenue-chart-heading" className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="revenue-chart-heading" className="text-lg font-bold text-slate-950">
          Revenue, last {months.length} months
        </h2>
        <p className="text-sm text-slate-600">
          {formatCents(totalCents)} net of refunds, renewals included · <span className="inline-block size-2.5 rounded-sm bg-brand-600" aria-hidden="true" />{" "}
          revenue <span className="inline-block h-0.5 w-3 bg-accent-500 align-middle" aria-hidden="true" /> orders
        </p>
      </div>
      {empty ? (
        <p className="mt-4 rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-slate-600" data-testid="revenue-chart-empty">
          Nothing here yet: revenue and orders show up once the first order is paid.
        </p>
      ) : (
        <>
          {/* Phones get a narrower drawing (its text is not scaled down to a few pixels), wider screens the full one; only one is ever shown. */}
          <ChartSvg months={months} layout={COMPACT} className="sm:hidden" />
          <ChartSvg months={months} layout={FULL} className="max-sm:hidden" testId="revenue-chart" />
        </>
      )}
      <table className="sr-only">
        <caption>Revenue and orders per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Revenue</th>
            <th scope="col">Orders</th>
            <th scope="col">Renewals</th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{label(m.month)}</th>
              <td>{formatCents(m.revenueCents)}</td>
              <td>{m.orders}</td>
              <td>{m.renewals}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ChartSvg({ months, layout, className, testId }: { months: RevenueChartMonth[]; layout: Layout; className: string; testId?: string }) {
  const { width, height, margin, fontSize, labelEvery } = layout;
  const innerWidth = width - margin.left - margin.right;
  const innerHeight = height - margin.top - margin.bottom;
  const x = scaleBand<string>()
    .domain(months.map((m) => m.month))
    .range([0, innerWidth])
    .padding(0.25);
  // Whole, distinct, round ticks on both axes (domain/chart.ts); the scales end at the last tick.
  // The left axis is written in whole dollars: its ticks are rounded in dollars.
  const revenueTicks = roundTicks(Math.max(...months.map((m) => m.revenueCents / 100)));
  const orderTicks = roundTicks(Math.max(...months.map((m) => m.orders)));
  const revenue = scaleLinear()
    .domain([0, revenueTicks.at(-1)!])
    .range([innerHeight, 0]);
  const orders = scaleLinear()
    .domain([0, orderTicks.at(-1)!])
    .range([innerHeight, 0]);
  const ordersPath = line<RevenueChartMonth>()
    .x((m) => (x(m.month) ?? 0) + x.bandwidth() / 2)
    .y((m) => orders(m.orders))(months);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby="revenue-chart-heading"
      className={`mt-3 h-auto w-full ${className}`}
      data-testid={testId}
    >
      <g transform={`translate(${margin.left},${margin.top})`}>
        {revenueTicks.map((tick) => (
          <g key={tick} transform={`translate(0,${revenue(tick)})`}>
            <line x2={innerWidth} className="stroke-slate-200" />
            <text x={-8} dy="0.32em" textAnchor="end" fontSize={fontSize} className="fill-slate-500">
              {compactDollars(tick)}
            </text>
          </g>
        ))}
        {orderTicks.map((tick) => (
          <text key={tick} x={innerWidth + 8} y={orders(tick)} dy="0.32em" fontSize={fontSize} className="fill-slate-500">
            {tick}
          </text>
        ))}
        {months.map((m, index) => (
          <g key={m.month}>
            <rect
              x={x(m.month)}
              y={revenue(m.revenueCents / 100)}
              width={x.bandwidth()}
              height={Math.max(0, innerHeight - revenue(m.revenueCents / 100))}
              rx={3}
              className="fill-brand-600"
              data-month={testId ? m.month : undefined}
              data-revenue-cents={testId ? m.revenueCents : undefined}
            >
              <title>{`${label(m.month)}: ${formatCents(m.revenueCents)}, ${m.orders} orders${m.renewals ? `, ${m.renewals} renewals` : ""}`}</title>
            </rect>
            {(months.length - 1 - index) % labelEvery === 0 ? (
              <text x={(x(m.month) ?? 0) + x.bandwidth() / 2} y={innerHeight + 20} textAnchor="middle" fontSize={fontSize} className="fill-slate-600">
                {label(m.month)}
              </text>
            ) : null}
          </g>
        ))}
        {ordersPath ? <path d={ordersPath} fill="none" className="stroke-accent-500" strokeWidth={2} /> : null}
        {months.map((m) => (
          <circle key={m.month} cx={(x(m.month) ?? 0) + x.bandwidth() / 2} cy={orders(m.orders)} r={3} className="fill-accent-500" />
        ))}
      </g>
    </svg>
  );
}
