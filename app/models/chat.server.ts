import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";

import { supportCustomerId, supportRoomId, type ChatMessage } from "~/domain/chat";
import { isVisitorRoom } from "~/domain/inbox";
import { can } from "~/domain/permissions";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";

import { clientOfAccount } from "./clients.server";
import { notificationSettingsOf } from "./notifications.server";
import { replyToAddress } from "./reply-addresses.server";
import { threadEvents, type ReadReceipt } from "./thread-events.server";

/*
 * Chat: one support thread per customer (`support-{customerId}`), written to by the customer and
 * answered by any team member (docs/decisions/050-support-thread.md). Messages are stored here
 * before the socket server broadcasts them (one statement each: chat-send.server.ts); read positions
 * drive unread counts and e-mail grouping.
 */

export const CONVERSATION_PAGE_SIZE = 50;
export const CONVERSATION_MAX_PAGE_SIZE = 200;
/** After this long without reading, a customer who got one reply e-mail may get another. */
export const NOTIFY_AGAIN_AFTER = "24 hours";

const m = schema.chatMessages;
const t = schema.chatThreads;
const a = schema.chatAttachments;

export type Cursor = { before: string } | { after: string } | Record<string, never>;

/**
 * A page of one room, oldest first. No cursor: the newest `limit`. `before`: the `limit` messages
 * just before that one (scrolling back). `after`: the first `limit` messages after it (catching up
 * after a reconnect). Returns null when the cursor is not a message of this room.
 */
export async function getRoomMessages(roomId: string, cursor: Cursor, limit = CONVERSATION_PAGE_SIZE): Promise<ChatMessage[] | null> {
  const anchorId = "before" in cursor ? cursor.before : "after" in cursor ? cursor.after : null;
  let position: SQL | undefined;
  if (anchorId) {
    const [anchor] = await db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.id, anchorId), eq(m.roomId, roomId)))
      .limit(1);
    if (!anchor) return null;
    const anchorRow = sql`(select ${m.createdAt}, ${m.id} from ${m} where ${m.id} = ${anchorId})`;
    position = "after" in cursor ? sql`(${m.createdAt}, ${m.id}) > ${anchorRow}` : sql`(${m.createdAt}, ${m.id}) < ${anchorRow}`;
  }
  const forward = "after" in cursor;
  const rows = await db
    .select({
      id: m.id,
      roomId: m.roomId,
      receiverId: m.receiverId,
      message: m.message,
      createdAt: m.createdAt,
      messageType: m.messageType,
      senderId: schema.users.id,
      senderName: schema.users.name,
      senderImage: schema.users.profileImage,
      visitorId: t.id,
      visitorName: sql<string | null>`coalesce(${t.visitorName}, ${t.visitorEmail})`,
      serviceId: schema.services.id,
      serviceName: schema.services.name,
      attachmentId: a.id,
      attachmentName: a.fileName,
      attachmentType: a.mimeType,
      attachmentSize: a.fileSize,
    })
    .from(m)
    .leftJoin(schema.users, eq(schema.users.id, m.senderId))
    .leftJoin(t, and(isNull(m.senderId), eq(t.roomId, m.roomId)))
    .leftJoin(schema.services, eq(schema.services.id, m.serviceId))
    .leftJoin(a, eq(a.messageId, m.id))
    .where(and(eq(m.roomId, roomId), position))
    .orderBy(...(forward ? [asc(m.createdAt), asc(m.id)] : [desc(m.createdAt), desc(m.id)]))
    .limit(limit);
  if (!forward) rows.reverse();
  return rows.map((r) => ({
    _id: r.id,
    roomId: r.roomId,
    senderId: r.senderId
      ? { _id: r.senderId, name: r.senderName ?? "", profileImage: r.senderImage }
      : { _id: r.visitorId ?? "", name: r.visitorName || "Visitor", profileImage: null },
    receiverId: r.receiverId,
    message: r.message,
    ...(r.messageType === "file" && r.attachmentId
      ? {
          messageType: "file" as const,
          attachment: { _id: r.attachmentId, fileName: r.attachmentName!, mimeType: r.attachmentType!, fileSize: r.attachmentSize! },
        }
      : { messageType: "text" as const }),
    createdAt: r.createdAt.toISOString(),
    service: r.serviceId && r.serviceName ? { _id: r.serviceId, name: r.serviceName } : null,
  }));
}

export function getConversation(customerId: string, cursor: Cursor, limit?: number) {
  return getRoomMessages(supportRoomId(customerId), cursor, limit);
}

/** Whether a message belongs to a room (a read receipt must name a message of its own room). */
export async function isMessageInRoom(messageId: string, roomId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: m.id })
    .from(m)
    .where(and(eq(m.id, messageId), eq(m.roomId, roomId)))
    .limit(1);
  return !!row;
}

/**
 * The user has seen the room up to `upTo` (a message of that room), or up to its newest message.
 * Support and visitor threads also move that side's read receipt forward and recount its unread
 * messages from there. Returns the receipt, or null when `upTo` is not a message of this room
 * (a forged `read`) or nothing moved.
 */
export async function markRead(userId: string, roomId: string, upTo?: string): Promise<ReadReceipt | null> {
  const customerId = supportCustomerId(roomId);
  let anchorId = upTo ?? null;
  if (upTo) {
    const [anchor] = await db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.id, upTo), eq(m.roomId, roomId)))
      .limit(1);
    if (!anchor) return null;
  }
  await db
    .insert(schema.chatReadPositions)
    .values({ userId, roomId, lastReadAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: [schema.chatReadPositions.userId, schema.chatReadPositions.roomId],
      set: { lastReadAt: sql`clock_timestamp()` },
    });
  if (!customerId && !isVisitorRoom(roomId)) return null;

  const customerSide = customerId !== null && userId === customerId;
  anchorId ??= (await db.select({ id: t.lastMessageId }).from(t).where(eq(t.roomId, roomId)).limit(1))[0]?.id ?? null;
  if (!anchorId) return null;
  const readColumn = customerSide ? t.customerReadMessageId : t.teamReadMessageId;
  const anchorRow = sql`(select ${m.createdAt}, ${m.id} from ${m} where ${m.id} = ${anchorId})`;
  // The other side's messages after the anchor (a visitor's have no sender).
  const theirs = customerSide
    ? sql`${m.senderId} is not null and ${m.senderId} <> ${t.customerId}`
    : sql`(${m.senderId} is null or ${m.senderId} = ${t.customerId})`;
  const moved = await db
    .update(t)
    .set({
      ...(customerSide
        ? {
            customerReadMessageId: anchorId,
            customerUnread: sql`(select count(*)::int from ${m} where ${m.roomId} = ${t.roomId} and ${theirs} and (${m.createdAt}, ${m.id}) > ${anchorRow})`,
          }
        : {
            teamReadMessageId: anchorId,
            teamUnread: sql`(select count(*)::int from ${m} where ${m.roomId} = ${t.roomId} and ${theirs} and (${m.createdAt}, ${m.id}) > ${anchorRow})`,
          }),
    })
    .where(
      and(
        eq(t.roomId, roomId),
        // Forward only: a late receipt for an older message changes nothing.
        sql`not exists (select 1 from ${m} as cur where cur.id = ${readColumn} and (cur.created_at, cur.id) >= ${anchorRow})`,
      ),
    )
    .returning({ id: t.id });
  if (moved.length === 0) return null;
  const receipt: ReadReceipt = { roomId, userId, messageId: anchorId, customerId };
  threadEvents.emit("changed", roomId);
  threadEvents.emit("read", receipt);
  return receipt;
}

/** Replies from staff in the customer's thread that the customer has not read yet (from the thread summary). */
export async function getUnreadCountForCustomer(userId: string): Promise<number> {
  const [row] = await db.select({ count: t.customerUnread }).from(t).where(eq(t.customerId, userId)).limit(1);
  return row?.count ?? 0;
}

/**
 * A client's member's unread count: the team's messages in the client's thread since the member last
 * read it (each member reads for themselves). The thread summary's count serves a client of one.
 */
export async function getUnreadCountForMember(clientId: string, memberId: string): Promise<number> {
  if (clientId === memberId) return getUnreadCountForCustomer(clientId);
  const room = supportRoomId(clientId);
  const rp = schema.chatReadPositions;
  const msg = schema.chatMessages;
  const since = sql`coalesce((select ${rp.lastReadAt} from ${rp} where ${rp.userId} = ${memberId} and ${rp.roomId} = ${room}), 'epoch')`;
  const unread = db
    .select({ one: sql`1`.as("one") })
    .from(msg)
    .innerJoin(schema.users, eq(schema.users.id, msg.senderId))
    .where(and(eq(msg.roomId, room), eq(schema.users.role, "team"), sql`${msg.createdAt} > ${since}`))
    .limit(100)
    .as("unread");
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(unread);
  return Number(row?.count ?? 0);
}

/**
 * Customer (and visitor) messages no team member has read or answered yet, per thread key (the
 * customer's id; a visitor thread's own id), from the thread summary. The inbox is shared: once
 * any staff member has read a thread (or replied in it), it is no longer unread.
 */
export async function getUnreadCountsForTeam(): Promise<{ total: number; byCustomer: Record<string, number> }> {
  const rows = await db
    .select({ key: sql<string>`coalesce(${t.customerId}, ${t.id})`, count: t.teamUnread })
    .from(t)
    .where(sql`${t.teamUnread} > 0`);
  const byCustomer: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    byCustomer[row.key] = row.count;
    total += row.count;
  }
  return { total, byCustomer };
}

/**
 * A staff reply reached a customer with no open connection: one e-mail per quiet period. The
 * claim is one atomic upsert on notified_at, so two nodes never both send; the next e-mail waits
 * until the customer has read the thread since (or NOTIFY_AGAIN_AFTER has passed).
 */
export async function notifyCustomerOfReply(customerId: string, staffName: string, memberId: string = customerId): Promise<boolean> {
  // Only for a member whose e-mail choice for messages is instant (docs/decisions/290).
  if ((await notificationSettingsOf(memberId)).email.message !== "instant") return false;
  const rp = schema.chatReadPositions;
  const room = supportRoomId(customerId);
  const claimed = await db
    .insert(rp)
    .values({ userId: memberId, roomId: room, lastReadAt: sql`'epoch'`, notifiedAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: [rp.userId, rp.roomId],
      set: { notifiedAt: sql`clock_timestamp()` },
      setWhere: sql`${rp.notifiedAt} is null or ${rp.notifiedAt} < ${rp.lastReadAt}
        or ${rp.notifiedAt} < clock_timestamp() - ${NOTIFY_AGAIN_AFTER}::interval`,
    })
    .returning({ userId: rp.userId });
  if (claimed.length === 0) return false;

  const [customer] = await db
    .select({ email: schema.users.email, name: schema.users.name, disabledAt: schema.users.disabledAt })
    .from(schema.users)
    .where(eq(schema.users.id, memberId))
    .limit(1);
  if (!customer || customer.disabledAt) return false;
  try {
    // With INBOUND_DOMAIN, answering the e-mail answers in the thread (docs/integrations.md).
    const replyTo = replyToAddress(memberId, customerId);
    await sendEmail({
      to: customer.email,
      category: "message",
      ...(replyTo ? { replyTo } : {}),
      subject: "You have a new message from BrandLift",
      heading: `Hi ${customer.name}, you have a new message`,
      paragraphs: [
        `${staffName} from the BrandLift team replied to your support conversation.`,
        replyTo
          ? "Reply to this e-mail to answer in the conversation, or open your dashboard. We will not e-mail you about further messages until you have read this one."
          : "Open your dashboard to read it and answer. We will not e-mail you about further messages until you have read this one.",
      ],
      action: { label: "Open the conversation", url: `${env.appUrl}/dashboard/messages` },
    });
    return true;
  } catch (error) {
    // Let the next reply try again rather than silently swallowing the quiet period.
    await db
      .update(rp)
      .set({ notifiedAt: null })
      .where(and(eq(rp.userId, memberId), eq(rp.roomId, room)));
    logger.warn({ err: error, customerId, memberId }, "chat reply e-mail failed");
    return false;
  }
}

/** The client behind a conversation id (the client's or any member's), if it is a customer account. */
export async function findChatCustomer(userId: string) {
  // Any member's id names their client's thread (decision 283); the answer's id is the client's.
  const client = clientOfAccount(schema.users.id, { formerToo: true });
  const [user] = await db
    .select({ id: client.id, name: client.name(schema.users.name), role: schema.users.role })
    .from(schema.users)
    .leftJoin(...client.membership)
    .leftJoin(...client.client)
    .where(eq(schema.users.id, userId))
    .limit(1);
  return user && can(user, "area:customer") ? user : null;
}
