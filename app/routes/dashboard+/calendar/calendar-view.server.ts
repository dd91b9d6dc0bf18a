import {
  addDays,
  dayInZone,
  DEFAULT_TIME_ZONE,
  mondayOf,
  periodDays,
  resolveTimeZone,
  TIME_ZONE_COOKIE,
  zonedToUtc,
  type CalendarPeriod,
} from "~/domain/calendar";
import { dayField, monthField } from "~/domain/dates";

/*
 * What a calendar screen shows: the viewer's time zone (a cookie the page sets from the browser's
 * Intl, decision 211) and the month or week asked for in the URL, with its days as a UTC window.
 */

/** The viewer's zone from the `tz` cookie; UTC without one or with one this runtime does not know. */
export function timeZoneOf(request: Request): string {
  const cookie = request.headers.get("Cookie") ?? "";
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === TIME_ZONE_COOKIE) {
      try {
        return resolveTimeZone(decodeURIComponent(rest.join("=")));
      } catch {
        return DEFAULT_TIME_ZONE;
      }
    }
  }
  return DEFAULT_TIME_ZONE;
}

export interface CalendarWindow {
  /**
   * The month or week asked for; its days, title and neighbours follow from it (`periodView`), the
   * month it belongs to (the plan's quota) from `periodMonth`.
   */
  period: CalendarPeriod;
  /** The period's days as a UTC window in the viewer's zone. */
  from: Date;
  to: Date;
  /** Today in the viewer's zone. */
  today: string;
}

const monthParam = monthField("month");
const weekParam = dayField("week");

/** A date the URL gives, checked as every date input is (a 400 naming it); absent: null. */
function asked<T extends typeof monthParam | typeof weekParam>(url: URL, name: string, schema: T): string | null {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return null;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Response(parsed.error.issues[0]!.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return parsed.data;
}

/**
 * `?view=week&week=2026-11-30` or `?month=2026-12`; without one, the current month or week. A month
 * or week that is not a date in range is a 400 naming it.
 */
export function calendarWindow(url: URL, timeZone: string, now = new Date()): CalendarWindow {
  const today = dayInZone(now, timeZone);
  const period: CalendarPeriod =
    url.searchParams.get("view") === "week"
      ? { view: "week", week: mondayOf(asked(url, "week", weekParam) ?? today) }
      : { view: "month", month: asked(url, "month", monthParam) ?? today.slice(0, 7) };
  // Only the days: the title and neighbours are the screen's, from the period.
  const days = periodDays(period);
  const from = zonedToUtc(days[0]!, "00:00", timeZone)!;
  const to = zonedToUtc(addDays(days.at(-1)!, 1), "00:00", timeZone)!;
  return { period, from, to, today };
}
