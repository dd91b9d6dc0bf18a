import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";

import { db, schema } from "~/utils/db.server";
import { startSweep } from "~/utils/sweep.server";

import { createPostMediaUrl, POST_MEDIA_URL_TTL_MS } from "./post-media-links.server";
import { emitEvent } from "./webhooks.server";

/*
 * `post.due` (docs/integrations.md): every minute, each approved post whose time has come is
 * announced once, with its caption and media links valid 24 hours, so a publishing tool can post it.
 * Once per post and time: the event's key names both, so a post moved to a later time is announced
 * again then. Posts more than a day late are left alone (the links would be stale on arrival).
 */

export const POST_DUE_SWEEP_MS = 60 * 1000;
const p = schema.posts;
const m = schema.postMedia;

/** Once per post and scheduled time (in milliseconds, as JavaScript reads the column). */
const onceKey = (post: { id: string; scheduledAt: Date }) => `post.due:${post.id}:${post.scheduledAt.getTime()}`;
const onceKeySql = sql`'post.due:' || ${p.id} || ':' || floor(extract(epoch from ${p.scheduledAt}) * 1000)::bigint`;

/** Emits post.due for each approved post due by `now`; answers how many. */
export async function emitDuePosts(now = new Date()): Promise<number> {
  const due = await db
    .select({ id: p.id, customerId: p.customerId, channel: p.channel, caption: p.caption, scheduledAt: p.scheduledAt })
    .from(p)
    .where(
      and(
        eq(p.status, "approved"),
        lte(p.scheduledAt, now),
        gt(p.scheduledAt, new Date(now.getTime() - POST_MEDIA_URL_TTL_MS)),
        sql`not exists (select 1 from ${schema.webhookEvents} where ${schema.webhookEvents.onceKey} = ${onceKeySql})`,
      ),
    )
    .orderBy(asc(p.scheduledAt))
    .limit(500);
  if (due.length === 0) return 0;
  const media = await db
    .select({ id: m.id, postId: m.postId, mimeType: m.mimeType, fileName: m.fileName })
    .from(m)
    .where(
      inArray(
        m.postId,
        due.map((post) => post.id),
      ),
    )
    .orderBy(asc(m.createdAt));
  let emitted = 0;
  for (const post of due) {
    const files = media
      .filter((file) => file.postId === post.id)
      .map((file) => ({ _id: file.id, mimeType: file.mimeType, fileName: file.fileName, url: createPostMediaUrl(file.id, now.getTime()) }));
    const data = {
      post: {
        _id: post.id,
        clientId: post.customerId,
        channel: post.channel,
        caption: post.caption,
        scheduledAt: post.scheduledAt.toISOString(),
        media: files,
        mediaUrlsExpireAt: new Date(now.getTime() + POST_MEDIA_URL_TTL_MS).toISOString(),
      },
    };
    const id = await db.transaction((tx) => emitEvent(tx, "post.due", data, { onceKey: onceKey(post) }));
    if (id) emitted++;
  }
  return emitted;
}

/** The post.due sweep, every minute, as a job (once across nodes). */
export function startPostDueSweep(): () => void {
  return startSweep({
    kind: "post-due",
    everyMs: POST_DUE_SWEEP_MS,
    work: () => emitDuePosts(),
    done: "announced posts whose time came",
    failed: "the post.due sweep failed",
  });
}
