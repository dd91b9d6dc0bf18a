import { useFetcher } from "@remix-run/react";
import { Film } from "lucide-react";
import { useState, type DragEvent } from "react";

import { CHANNEL_LABELS, dayInZone, dayLabel, formatClock, POST_STATUS_LABELS, type Post, type PostFile } from "~/domain/calendar";

/**
 * The month or week as a grid of days (from md; phones get the list of cards instead). Each post is
 * a chip at its time in the viewer's zone, with its first image (or a film mark for a video) and the
 * start of its caption, so a month reads without opening each post; a chip opens the post. Staff drag a chip onto another
 * day to reschedule it (same time of day); the post's page has the same as a plain form. A day and
 * a chip take their looks from `.calendar-grid` by their place and state (another month's day,
 * a post's status), not from classes each of the 35-42 days repeats (decision 325).
 */
export function CalendarBoard({
  days,
  month,
  posts,
  timeZone,
  today,
  staff,
}: {
  days: string[];
  month: string | null;
  posts: Post[];
  timeZone: string;
  today: string;
  staff: boolean;
}) {
  const fetcher = useFetcher();
  const [over, setOver] = useState<string | null>(null);
  const byDay = new Map<string, Post[]>();
  for (const post of posts) {
    const day = dayInZone(post.scheduledAt, timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), post]);
  }
  const drop = (day: string) => (event: DragEvent) => {
    event.preventDefault();
    setOver(null);
    const postId = event.dataTransfer.getData("application/x-brandlift-post");
    if (!postId) return;
    void fetcher.submit({ intent: "reschedule", postId, date: day }, { method: "post" });
  };
  return (
    <div className="hidden md:block" data-testid="calendar-board">
      <ol className="calendar-grid" aria-label="Calendar">
        {days.map((day) => {
          const outside = month !== null && !day.startsWith(month);
          const dayPosts = byDay.get(day) ?? [];
          return (
            <li
              key={day}
              data-outside={outside ? "" : undefined}
              className={over === day ? "bg-brand-50 ring-2 ring-brand-400 ring-inset" : undefined}
              onDragOver={
                staff
                  ? (event) => {
                      event.preventDefault();
                      setOver(day);
                    }
                  : undefined
              }
              onDragLeave={staff ? () => setOver((current) => (current === day ? null : current)) : undefined}
              onDrop={staff ? drop(day) : undefined}
            >
              <p className={day === today ? "text-brand-700" : undefined}>
                {dayLabel(day)}
                {day === today ? <span className="sr-only"> (today)</span> : null}
              </p>
              {dayPosts.length === 0 ? null : (
                <ul className="space-y-1">
                  {dayPosts.map((post) => (
                    <li key={post.id}>
                      <a
                        href={staff ? `/dashboard/calendar/posts/${post.id}` : `#post-${post.id}`}
                        draggable={staff && post.status !== "published"}
                        onDragStart={(event) => {
                          event.dataTransfer.setData("application/x-brandlift-post", post.id);
                          event.dataTransfer.effectAllowed = "move";
                        }}
                        data-testid="calendar-chip"
                        data-post={post.id}
                        data-status={post.status}
                        className="calendar-chip"
                      >
                        <Thumbnail media={post.media} />
                        <span className="min-w-0 flex-1">
                          <span className="block truncate">
                            {formatClock(post.scheduledAt, timeZone)} {CHANNEL_LABELS[post.channel]}
                            {staff ? ` · ${post.customer.name}` : ""}
                          </span>
                          {post.overdue ? <span className="block font-bold text-red-800 uppercase">Review overdue</span> : null}
                          {post.caption.trim() ? (
                            <span data-testid="chip-caption" className="line-clamp-2 font-normal break-words opacity-85">
                              {captionStart(post.caption)}
                            </span>
                          ) : null}
                        </span>
                        <span className="sr-only">{` (${POST_STATUS_LABELS[post.status]})`}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const CAPTION_START = 60;

/** The caption's first words, cut at a word within CAPTION_START characters. */
function captionStart(caption: string): string {
  const flat = caption.replace(/\s+/g, " ").trim();
  if (flat.length <= CAPTION_START) return flat;
  const cut = flat.slice(0, CAPTION_START);
  const space = cut.lastIndexOf(" ");
  return `${(space > CAPTION_START / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The post's first image, small; a film mark when its first file is a video; nothing without media. */
function Thumbnail({ media }: { media: PostFile[] }) {
  const first = media[0];
  if (!first) return null;
  if (first.mimeType.startsWith("image/")) {
    return <img src={first.url} alt="" loading="lazy" decoding="async" className="size-8 shrink-0 rounded bg-white object-cover" />;
  }
  return (
    <span className="flex size-8 shrink-0 items-center justify-center rounded bg-white/70">
      <Film aria-hidden="true" className="size-4" />
    </span>
  );
}
