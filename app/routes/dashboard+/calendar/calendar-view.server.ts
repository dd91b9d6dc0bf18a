import {
  addDays,
  dayInZone,
  dayLabel,
  daysFrom,
  DEFAULT_TIME_ZONE,
  mondayOf,
  monthGrid,
  monthLabel,
  resolveTimeZone,
  shiftMonth,
  TIME_ZONE_COOKIE,
  zonedToUtc,
} from "~/domain/calendar";
import { dayField, monthField } from "~/domain/dates";

/*
 * What a calendar screen shows: the viewer's time zone (a cookie the page sets from the browser's
 * Intl, decision 211) and the days of the month or week asked for in the URL, as a UTC window.
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
  view: "month" | "week";
  title: string;
  /** The days shown, "YYYY-MM-DD" in the viewer's zone. */
  days: string[];
  /** The month the view belongs to (a month view's days outside it are greyed). */
  month: string;
  from: Date;
  to: Date;
  /** Query strings of the previous and next window, and of today's. */
  previous: string;
  next: string;
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
  const view = url.searchParams.get("view") === "week" ? "week" : "month";
  let days: string[];
  let month: string;
  let title: string;
  let previous: string;
  let next: string;
  if (view === "week") {
    const start = mondayOf(asked(url, "week", weekParam) ?? today);
    days = daysFrom(start, 7);
    month = start.slice(0, 7);
    title = `Week of ${dayLabel(start)}`;
    previous = `view=week&week=${addDays(start, -7)}`;
    next = `view=week&week=${addDays(start, 7)}`;
  } else {
    month = asked(url, "month", monthParam) ?? today.slice(0, 7);
    days = monthGrid(month);
    title = monthLabel(month);
    previous = `month=${shiftMonth(month, -1)}`;
    next = `month=${shiftMonth(month, 1)}`;
  }
  const from = zonedToUtc(days[0]!, "00:00", timeZone)!;
  const to = zonedToUtc(addDays(days.at(-1)!, 1), "00:00", timeZone)!;
  return { view, title, days, month, from, to, previous, next, today };
}
