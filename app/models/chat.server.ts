import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ChatMessage, ChatUser } from "~/realtime/events";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { supportRoomId } from "~/utils/permissions";
import { VISIBLE_STATUSES } from "./purchases.server";

/*
 * Chat: one support thread per customer (`support-{customerId}`), written to by the customer and
 * answered by any team member (docs/decisions/050-support-thread.md). Messages are stored here
 * before the socket server broadcasts them; read positions drive unread counts and e-mail grouping.
 */

export const CONVERSATION_PAGE_SIZE = 50;
export const CONVERSATION_MAX_PAGE_SIZE = 200;
/** After this long without reading, a customer who got one reply e-mail may get another. */
export const NOTIFY_AGAIN_AFTER = "24 hours";

const m = schema.chatMessages;

export interface NewMessage {
  roomId: string;
  sender: ChatUser;
  receiverId: string | null;
  customerId: string | null;
  service: { _id: string; name: string } | null;
  message: string;
}

/**
 * Stores one message (one statement, one commit: the acknowledgement waits for nothing else);
 * the result is what every client receives. The caller marks the thread read for the sender.
 */
export async function storeMessage(input: NewMessage): Promise<ChatMessage> {
  const [row] = await db
    .insert(m)
    .values({
      roomId: input.roomId,
      senderId: input.sender._id,
      receiverId: input.receiverId,
      customerId: input.customerId,
      serviceId: input.service?._id ?? null,
      message: input.message,
      messageType: "text",
      createdAt: sql`clock_timestamp()`,
    })
    .returning({ id: m.id, createdAt: m.createdAt });
  return {
    _id: row!.id,
    roomId: input.roomId,
    senderId: input.sender,
    receiverId: input.receiverId,
    message: input.message,
    messageType: "text",
    createdAt: row!.createdAt.toISOString(),
    service: input.service,
  };
}

/**
 * The service a message is about: a customer may name only a service they bought;
 * staff any service. Null when it does not qualify.
 */
export async function findMessageService(serviceId: string, customer: { id: string; role: "user" | "team" }) {
  const [service] = await db
    .select({ _id: schema.services.id, name: schema.services.name })
    .from(schema.services)
    .where(eq(schema.services.id, serviceId))
    .limit(1);
  if (!service || customer.role === "team") return service ?? null;
  const [bought] = await db
    .select({ id: schema.purchases.id })
    .from(schema.purchases)
    .where(
      and(
        eq(schema.purchases.userId, customer.id),
        eq(schema.purchases.serviceId, serviceId),
        inArray(schema.purchases.status, [...VISIBLE_STATUSES]),
      ),
    )
    .limit(1);
  return bought ? service : null;
}

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
      senderId: schema.users.id,
      senderName: schema.users.name,
      senderImage: schema.users.profileImage,
      serviceId: schema.services.id,
      serviceName: schema.services.name,
    })
    .from(m)
    .innerJoin(schema.users, eq(schema.users.id, m.senderId))
    .leftJoin(schema.services, eq(schema.services.id, m.serviceId))
    .where(and(eq(m.roomId, roomId), position))
    .orderBy(...(forward ? [asc(m.createdAt), asc(m.id)] : [desc(m.createdAt), desc(m.id)]))
    .limit(limit);
  if (!forward) rows.reverse();
  return rows.map((r) => ({
    _id: r.id,
    roomId: r.roomId,
    senderId: { _id: r.senderId, name: r.senderName, profileImage: r.senderImage },
    receiverId: r.receiverId,
    message: r.message,
    messageType: "text",
    createdAt: r.createdAt.toISOString(),
    service: r.serviceId && r.serviceName ? { _id: r.serviceId, name: r.serviceName } : null,
  }));
}

export function getConversation(customerId: string, cursor: Cursor, limit?: number) {
  return getRoomMessages(supportRoomId(customerId), cursor, limit);
}

/** The user has seen everything in the room up to now. */
export async function markRead(userId: string, roomId: string) {
  await db
    .insert(schema.chatReadPositions)
    .values({ userId, roomId, lastReadAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: [schema.chatReadPositions.userId, schema.chatReadPositions.roomId],
      set: { lastReadAt: sql`clock_timestamp()` },
    });
}

/** Replies from staff in the customer's thread that the customer has not read yet. */
export async function getUnreadCountForCustomer(userId: string): Promise<number> {
  const room = supportRoomId(userId);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(m)
    .where(
      and(
        eq(m.roomId, room),
        sql`${m.senderId} <> ${userId}`,
        sql`${m.createdAt} > coalesce((select ${schema.chatReadPositions.lastReadAt} from ${schema.chatReadPositions}
          where ${schema.chatReadPositions.userId} = ${userId} and ${schema.chatReadPositions.roomId} = ${room}), 'epoch')`,
      ),
    );
  return row?.count ?? 0;
}

/**
 * Customer messages no team member has read or answered yet, per customer. The support inbox is
 * shared: once any staff member has read a thread (or replied in it), it is no longer unread.
 */
export async function getUnreadCountsForTeam(): Promise<{ total: number; byCustomer: Record<string, number> }> {
  const rp = schema.chatReadPositions;
  const rows = await db
    .select({ customerId: m.customerId, count: sql<number>`count(*)::int` })
    .from(m)
    .where(
      and(
        sql`${m.senderId} = ${m.customerId}`,
        sql`${m.createdAt} > coalesce((select max(${rp.lastReadAt}) from ${rp} join ${schema.users} on ${schema.users.id} = ${rp.userId}
          where ${schema.users.role} = 'team' and ${rp.roomId} = ${m.roomId}), 'epoch')`,
        sql`not exists (select 1 from ${m} as reply where reply.room_id = ${m.roomId}
          and reply.sender_id <> ${m.customerId} and reply.created_at > ${m.createdAt})`,
      ),
    )
    .groupBy(m.customerId);
  const byCustomer: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    if (!row.customerId) continue;
    byCustomer[row.customerId] = row.count;
    total += row.count;
  }
  return { total, byCustomer };
}

/**
 * A staff reply reached a customer with no open connection: one e-mail per quiet period. The
 * claim is one atomic upsert on notified_at, so two nodes never both send; the next e-mail waits
 * until the customer has read the thread since (or NOTIFY_AGAIN_AFTER has passed).
 */
export async function notifyCustomerOfReply(customerId: string, staffName: string): Promise<boolean> {
  const rp = schema.chatReadPositions;
  const room = supportRoomId(customerId);
  const claimed = await db
    .insert(rp)
    .values({ userId: customerId, roomId: room, lastReadAt: sql`'epoch'`, notifiedAt: sql`clock_timestamp()` })
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
    .where(eq(schema.users.id, customerId))
    .limit(1);
  if (!customer || customer.disabledAt) return false;
  try {
    await sendEmail({
      to: customer.email,
      subject: "You have a new message from BrandLift",
      heading: `Hi ${customer.name}, you have a new message`,
      paragraphs: [
        `${staffName} from the BrandLift team replied to your support conversation.`,
        "Open your dashboard to read it and answer. We will not e-mail you about further messages until you have read this one.",
      ],
      action: { label: "Open the conversation", url: `${env.appUrl}/dashboard/services` },
    });
    return true;
  } catch (error) {
    // Let the next reply try again rather than silently swallowing the quiet period.
    await db.update(rp).set({ notifiedAt: null }).where(and(eq(rp.userId, customerId), eq(rp.roomId, room)));
    logger.warn({ err: error, customerId }, "chat reply e-mail failed");
    return false;
  }
}

/** The customer behind a conversation id, if it is a customer account. */
export async function findChatCustomer(userId: string) {
  const [user] = await db
    .select({ id: schema.users.id, name: schema.users.name, role: schema.users.role })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1);
  return user && user.role === "user" ? user : null;
}
