import { eq, sql } from "drizzle-orm";

import { CHANNEL_LABELS, POST_MESSAGES, POST_STATUS_LABELS, type Post } from "~/domain/calendar";
import { isUuid } from "~/domain/ids";
import type { Actor } from "~/domain/permissions";
import { PUBLISH_MESSAGES } from "~/domain/post-publishing";
import { db, schema } from "~/utils/db.server";
import { HttpError, notFound } from "~/utils/http.server";

import { recordAudit } from "./audit.server";
import { postEvents } from "./post-events.server";
import { getPostFor } from "./posts.server";
import { emitPostStatusEvent } from "./webhooks.server";

/*
 * The publishing hand-off (docs/decisions/285): staff, or a tool holding a staff member's API key
 * with `posts:write`, report where an approved post went live. The post becomes published with its
 * permalink, an audit entry records the move, and both sides see it live. Reporting the same
 * permalink again (a tool retrying) answers the post as it is.
 */

const p = schema.posts;

export async function markPostPublished(actor: Actor, id: string, input: { permalink: string; publishedAt?: string }): Promise<Post> {
  if (!isUuid(id)) throw notFound(POST_MESSAGES.notFound);
  const moved = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(p).where(eq(p.id, id)).for("update");
    if (!row) throw notFound(POST_MESSAGES.notFound);
    if (row.status === "published") {
      if (row.permalink === input.permalink) return false;
      throw new HttpError(409, PUBLISH_MESSAGES.alreadyPublished, "CONFLICT");
    }
    if (row.status !== "approved") throw new HttpError(409, PUBLISH_MESSAGES.notApproved, "CONFLICT");
    await tx
      .update(p)
      .set({
        status: "published",
        permalink: input.permalink,
        publishedAt: input.publishedAt ? new Date(input.publishedAt) : sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(p.id, id));
    const [customer] = await tx.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, row.customerId));
    await recordAudit(
      {
        actor,
        action: "post.status",
        target: {
          kind: "post",
          id,
          label: `${CHANNEL_LABELS[row.channel]} post for ${customer?.name ?? "a customer"}, ${row.scheduledAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
        },
        detail: `${POST_STATUS_LABELS.approved} → ${POST_STATUS_LABELS.published} (${input.permalink})`,
      },
      tx,
    );
    // Every status move goes through the webhooks' one door (it knows which moves are events).
    await emitPostStatusEvent(tx, id, "published");
    return true;
  });
  const post = await getPostFor(actor, id);
  if (moved) postEvents.emit("changed", post, post);
  return post;
}
