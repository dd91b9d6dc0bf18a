/*
 * Chart axes that read well: ticks are whole numbers (whole dollars, whole orders), each one
 * different, at a round step (1, 2 or 5 × 10^n), from 0 to the first tick at or above the data.
 * "$0 $0 $0 $1 $1 $1" (d3's 0.2 steps, rounded for display) cannot happen.
 */

/** Ticks from 0 to at least `max`, at most about `count` + 1 of them, all distinct whole numbers. */
export function roundTicks(max: number, count = 4): number[] {
  const top = Math.max(0, Number.isFinite(max) ? max : 0);
  let step = 1;
  if (top > count) {
    const raw = top / count;
    const magnitude = 10 ** Math.floor(Math.log10(raw));
    step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
    step = Math.max(1, Math.round(step));
  }
  const last = Math.max(count * Math.min(step, 1), Math.ceil(top / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= last; tick += step) ticks.push(tick);
  return ticks;
}

/** "$0", "$500", "$1.5k", "$2.4M": whole dollars, written out by hand (Node's and the browser's compact formats differ). */
export function compactDollars(dollars: number): string {
  if (dollars >= 1_000_000) return `$${Number((dollars / 1_000_000).toFixed(2))}M`;
  if (dollars >= 1000) return `$${Number((dollars / 1000).toFixed(2))}k`;
  return `$${Math.round(dollars)}`;
}
