/*
 * The content calendar (decision 210): the channels a post is for, its statuses and who sees them,
 * the upload rules of its media, and the one way a post's time is written for a viewer
 * ("Tue 3 Dec, 14:00 CET": stored in UTC, shown in the viewer's named time zone, decision 210).
 */

import type { ReviewDecision, ReviewStage } from "~/domain/approvals";
import { yearInRange } from "~/domain/dates";
import type { Role } from "~/domain/status";

export const CHANNELS = ["instagram", "tiktok", "facebook", "linkedin", "x", "youtube"] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Record<Channel, string> = {
  instagram: "Instagram",
  tiktok: "TikTok",
  facebook: "Facebook",
  linkedin: "LinkedIn",
  x: "X",
  youtube: "YouTube",
};

export const POST_STATUSES = ["draft", "in_review", "changes_requested", "approved", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  draft: "Draft",
  in_review: "Waiting for review",
  changes_requested: "Changes requested",
  approved: "Approved",
  published: "Published",
};

/**
 * A post as the loaders hand it to screens (decision 309): ids as `id`, times as ISO strings. The
 * API's edge and the socket's `postUpdated` write it as PostJson (`_id`, `app/domain/schemas/calendar.ts`).
 */
export interface Post {
  id: string;
  customer: { id: string; name: string };
  channel: Channel;
  scheduledAt: string;
  caption: string;
  media: PostFile[];
  status: PostStatus;
  /** Its review (decisions 292–294): deadline, stage, this round's decisions, past its deadline. */
  reviewBy: string | null;
  stage: ReviewStage | null;
  approvals: PostApproval[];
  overdue: boolean;
  comments: PostComment[];
  updatedAt: string;
  /** Where it went live, as its publishing tool reported (null until then, or when staff marked it by hand). */
  permalink: string | null;
  publishedAt: string | null;
}

/** A customer the staff calendar offers, in its filter and in the draft form. */
export interface CalendarCustomer {
  id: string;
  name: string;
  /** Whether a live plan promises posts (the draft form lists those first). */
  livePlan: boolean;
}

/**
 * The staff calendar's customers as its loader sends them: a line each, the id, a space and the
 * name, the id preceded by `+` when a live plan promises posts. The page lists every customer twice
 * already; as objects its data cost some 95 bytes more for each, as lines about 50 (decision 325).
 * A line break in a name becomes a space, as an option's text shows it anyway.
 */
export function packCustomers(customers: CalendarCustomer[]): string {
  return customers.map((customer) => `${customer.livePlan ? "+" : ""}${customer.id} ${customer.name.replace(/[\r\n]+/g, " ")}`).join("\n");
}

/** The customers `packCustomers` wrote, in its order. */
export function unpackCustomers(packed: string): CalendarCustomer[] {
  if (!packed) return [];
  return packed.split("\n").map((line) => {
    const livePlan = line.startsWith("+");
    const space = line.indexOf(" ");
    return { id: line.slice(livePlan ? 1 : 0, space), name: line.slice(space + 1), livePlan };
  });
}

/** An image or video of a post, at its signed-in URL. */
export interface PostFile {
  id: string;
  mimeType: string;
  url: string;
}

/** One decision of the post's current review round, under the member's name. */
export interface PostApproval {
  member: { id: string; name: string };
  decision: ReviewDecision;
  at: string;
}

/** What changed since the post's last decision (decision 294): the caption word by word, and the files added and removed. */
export interface ReviewChanges {
  reviewed: number;
  current: number;
  caption: { value: string; added: boolean; removed: boolean }[];
  mediaAdded: number;
  mediaRemoved: number;
}

/** A comment in a post's thread; its author null once their account is gone. */
export interface PostComment {
  id: string;
  author: { id: string; name: string; role: Role } | null;
  body: string;
  createdAt: string;
}

export const isVisibleToCustomer = (status: PostStatus) => status !== "draft";
/** The statuses staff set with PATCH; `changes_requested` and `approved` are the customer's review. */
export const STAFF_STATUSES = ["draft", "in_review", "published"] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const CAPTION_MAX = 5000;
export const COMMENT_MAX = 5000;
/** At most this many files on one post (a carousel). */
export const MAX_POST_MEDIA = 10;

export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
};
export const MEDIA_ACCEPT = Object.keys(MEDIA_TYPES)
  .map((e) => `.${e}`)
  .join(",");
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;
export const MEDIA_MESSAGES = {
  file: "Please select an image or video to add",
  size: "File size must be less than 50MB",
  type: "Please add only images (PNG, JPG, WebP, GIF) or MP4 videos",
  tooMany: `A post has at most ${MAX_POST_MEDIA} files.`,
} as const;

export const POST_MESSAGES = {
  notFound: "Post not found.",
  customerNotFound: "Customer not found.",
  reviewStatus: "Only a post waiting for review can be approved or sent back.",
  commentRequired: "Please say what should change.",
  published: "A published post can no longer be changed.",
  publishUnapproved: "Only an approved post can be marked published.",
} as const;

/**
 * Staff moving a post: to draft (withdrawn) from anything not yet published, to review from a
 * draft, a post with changes requested or an approved one, to published only once approved.
 * Null when the move is allowed, else why not.
 */
export function staffMoveRefusal(from: PostStatus, to: StaffStatus): string | null {
  if (from === to) return null;
  if (from === "published") return POST_MESSAGES.published;
  if (to === "published" && from !== "approved") return POST_MESSAGES.publishUnapproved;
  return null;
}

export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

/** An IANA zone this runtime knows ("Europe/Paris"), else UTC: a cookie is input like any other. */
export function resolveTimeZone(value: string | null | undefined): string {
  if (!value || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return DEFAULT_TIME_ZONE;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat("en-GB", { timeZone, ...options });
    formats.set(key, found);
  }
  return found;
}

/** "Tue 3 Dec, 14:00 CET": a post's time in the viewer's zone, with the zone named. */
export function formatPostTime(iso: string | Date, timeZone: string): string {
  const parts = format(timeZone, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")}, ${part("hour")}:${part("minute")} ${part("timeZoneName")}`;
}

/** "14:00": the time alone, for a post inside a day cell that already names the day. */
export function formatClock(iso: string | Date, timeZone: string): string {
  return format(timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
}

/** The calendar date ("2026-12-03") of an instant in a zone. */
export function dayInZone(iso: string | Date, timeZone: string): string {
  const parts = format(timeZone, { year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** Minutes the zone is ahead of UTC at that instant. */
function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = format(timeZone, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The UTC instant of a wall-clock date and time ("2026-12-03", "14:00") in a zone. */
export function zonedToUtc(date: string, time: string, timeZone: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (!yearInRange(year) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const naive = Date.UTC(year, month - 1, day, hour, minute);
  if (new Date(naive).getUTCDate() !== day) return null;
  // Two passes settle the offset across a daylight-saving change.
  let guess = naive - offsetMinutes(new Date(naive), timeZone) * 60_000;
  guess = naive - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

/** Days "YYYY-MM-DD" from `first` on, `count` of them (calendar arithmetic in UTC, no zone involved). */
export function daysFrom(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

/** The day `by` days after (or before) `day`. */
export function addDays(day: string, by: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
}

/** Monday of the week holding `day`. */
export function mondayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const back = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/** The days a month view shows: whole weeks, Monday first, from the week of the 1st to that of the last day. */
export function monthGrid(month: string): string[] {
  const first = `${month}-01`;
  const [y, m] = month.split("-").map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const start = mondayOf(first);
  const end = Date.parse(`${mondayOf(last)}T00:00:00Z`) + 6 * 86_400_000;
  return daysFrom(start, Math.round((end - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1);
}

/** The month before or after "2026-12". */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7);
}

/** "December 2026". */
export function monthLabel(month: string): string {
  return format("UTC", { month: "long", year: "numeric" }).format(new Date(`${month}-01T12:00:00Z`));
}

/** "Tue 3 Dec": a day heading. */
export function dayLabel(day: string): string {
  return format("UTC", { weekday: "short", day: "numeric", month: "short" }).format(new Date(`${day}T12:00:00Z`));
}

/** The period a calendar screen shows: a month ("2026-12"), or the week from a Monday ("2026-11-30"). */
export type CalendarPeriod = { view: "month"; month: string } | { view: "week"; week: string };

/** The days a period shows: a month's whole weeks, or the week's seven. */
export function periodDays(period: CalendarPeriod): string[] {
  return period.view === "week" ? daysFrom(period.week, 7) : monthGrid(period.month);
}

/** The month a period belongs to (a week's: that of its Monday), as "2026-12". */
export function periodMonth(period: CalendarPeriod): string {
  return period.view === "week" ? period.week.slice(0, 7) : period.month;
}

/**
 * All a calendar screen shows of its period, derived from the period alone (so the loader sends only
 * the period): its title, its days (a month's whole weeks, or seven), the month it belongs to, and the
 * query strings of the previous and next period.
 */
export function periodView(period: CalendarPeriod) {
  const days = periodDays(period);
  const month = periodMonth(period);
  if (period.view === "week") {
    const start = period.week;
    return {
      view: period.view,
      title: `Week of ${dayLabel(start)}`,
      days,
      month,
      previous: `view=week&week=${addDays(start, -7)}`,
      next: `view=week&week=${addDays(start, 7)}`,
    };
  }
  return {
    view: period.view,
    title: monthLabel(month),
    days,
    month,
    previous: `month=${shiftMonth(month, -1)}`,
    next: `month=${shiftMonth(month, 1)}`,
  };
}
