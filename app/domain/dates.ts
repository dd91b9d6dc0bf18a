import { z } from "~/domain/zod";

/*
 * The one check of every date a person or client gives (API queries and bodies, screens' URLs and
 * forms): its shape, that the day exists, and that its year is within YEAR_RANGE. Years past it are
 * not a date anyone means, and break what the server does with them (year 0 and dates near the
 * end of JavaScript's range cannot be formatted, shifted or stored), so they are a 400 naming the
 * field, never a 500. docs/decisions/261.
 */

export const YEAR_RANGE = { min: 1970, max: 2999 } as const;
const years = `between ${YEAR_RANGE.min} and ${YEAR_RANGE.max}`;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const YEAR_AT_START = /^(\d{4})-/;

/** Whether a year is one the product takes. */
export const yearInRange = (year: number) => Number.isInteger(year) && year >= YEAR_RANGE.min && year <= YEAR_RANGE.max;

function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return yearInRange(year) && new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) === value;
}

function isMonth(value: string): boolean {
  const match = MONTH.exec(value);
  return !!match && yearInRange(Number(match[1])) && Number(match[2]) >= 1 && Number(match[2]) <= 12;
}

/** An ISO 8601 date and time with its offset ("2026-12-03T14:00:00Z"), year in range. */
function isDateTime(value: string): boolean {
  return z.iso.datetime({ offset: true }).safeParse(value).success && yearInRange(Number(YEAR_AT_START.exec(value)?.[1])) && Number.isFinite(Date.parse(value));
}

/** "2026-11-23": a calendar day that exists. */
export const dayField = (label: string) => {
  const message = `${label} must be a date like 2026-11-23, ${years}.`;
  return z.iso.date({ error: message }).refine(isDay, { error: message });
};

/** "2026-11": a month. */
export const monthField = (label: string) => {
  const message = `${label} must be a month like 2026-11, ${years}.`;
  return z.string({ error: message }).refine(isMonth, { error: message });
};

/** "2026-12-03T14:00:00Z" (any offset): an instant. Normalised to UTC ISO 8601. */
export const dateTimeField = (label: string) => {
  const message = `${label} must be an ISO 8601 date and time, e.g. 2026-12-03T14:00:00Z, ${years}.`;
  // z.iso.datetime, so the OpenAPI document says `format: date-time`; the range is checked after it.
  return z.iso
    .datetime({ offset: true, error: message })
    .refine(isDateTime, { error: message })
    .transform((value) => new Date(value).toISOString());
};

/** A day ("2026-11-23", its start in UTC) or an instant with its offset: a bound of a time window. */
export const dayOrDateTimeField = (label: string) => {
  const message = `${label} must be an ISO 8601 date or date and time, e.g. 2026-11-23 or 2026-11-23T14:00:00Z, ${years}.`;
  return z.string({ error: message }).refine((value) => isDay(value) || isDateTime(value), { error: message });
};
