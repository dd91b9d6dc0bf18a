import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import type { ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";
import { db, schema } from "~/utils/db.server";

/*
 * One inbox thread as clients see it: the summary row joined to the customer, the assignee and
 * the last message. The inbox lists read it with threadSelect(); a message's one-statement send
 * (chat-send.server.ts storeMessage) returns the same columns, and both map them with toThread().
 */

const t = schema.chatThreads;
const m = schema.chatMessages;
const a = schema.chatAttachments;
const customer = alias(schema.users, "customer");
const assignee = alias(schema.users, "assignee");
const sender = alias(schema.users, "sender");
const client = schema.clients;

export function threadSelect() {
  return db
    .select({
      id: t.id,
      roomId: t.roomId,
      customerId: t.customerId,
      visitorEmail: t.visitorEmail,
      visitorName: t.visitorName,
      status: t.status,
      teamUnread: t.teamUnread,
      updatedAt: t.updatedAt,
      customerName: customer.name,
      customerEmail: customer.email,
      clientName: client.name,
      assigneeId: assignee.id,
      assigneeName: assignee.name,
      messageId: m.id,
      messageText: m.message,
      messageType: m.messageType,
      messageReceiverId: m.receiverId,
      messageCreatedAt: m.createdAt,
      senderId: sender.id,
      senderName: sender.name,
      senderImage: sender.profileImage,
      attachmentId: a.id,
      attachmentName: a.fileName,
      attachmentType: a.mimeType,
      attachmentSize: a.fileSize,
    })
    .from(t)
    .leftJoin(customer, eq(customer.id, t.customerId))
    .leftJoin(client, eq(client.id, t.customerId))
    .leftJoin(assignee, eq(assignee.id, t.assigneeId))
    .leftJoin(m, eq(m.id, t.lastMessageId))
    .leftJoin(sender, eq(sender.id, m.senderId))
    .leftJoin(a, eq(a.messageId, m.id));
}

/** A message's send returns the same columns but its client's name: the thread then names the client after its first member. */
export type ThreadRow = Omit<Awaited<ReturnType<ReturnType<typeof threadSelect>["execute"]>>[number], "clientName"> & { clientName?: string | null };

export function toThread(r: ThreadRow): Thread {
  const visitor = r.customerId === null;
  const person = visitor
    ? { _id: r.id, name: r.visitorName || r.visitorEmail || "Visitor", email: r.visitorEmail ?? "" }
    : { _id: r.customerId!, name: r.customerName ?? "", email: r.customerEmail ?? "" };
  let lastMessage: ChatMessage | null = null;
  if (r.messageId && r.messageCreatedAt) {
    lastMessage = {
      _id: r.messageId,
      roomId: r.roomId,
      senderId: r.senderId
        ? { _id: r.senderId, name: r.senderName ?? "", profileImage: r.senderImage }
        : { _id: person._id, name: person.name, profileImage: null },
      receiverId: r.messageReceiverId,
      message: r.messageText ?? "",
      ...(r.messageType === "file" && r.attachmentId
        ? {
            messageType: "file" as const,
            attachment: { _id: r.attachmentId, fileName: r.attachmentName!, mimeType: r.attachmentType!, fileSize: r.attachmentSize! },
          }
        : { messageType: "text" as const }),
      createdAt: r.messageCreatedAt.toISOString(),
      service: null,
    };
  }
  return {
    _id: r.id,
    roomId: r.roomId,
    kind: visitor ? "visitor" : "customer",
    customer: person,
    // The customer's client (decision 295); a thread's key is the client's id.
    client: visitor ? null : { _id: r.customerId!, name: r.clientName ?? r.customerName ?? "" },
    lastMessage,
    unread: r.teamUnread,
    status: r.status,
    assignee: r.assigneeId ? { _id: r.assigneeId, name: r.assigneeName ?? "" } : null,
    updatedAt: r.updatedAt.toISOString(),
  };
}
