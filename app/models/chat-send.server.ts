import crypto from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { RateLimiterRes } from "rate-limiter-flexible";

import { CHAT_ERRORS, MESSAGE_MAX_LENGTH, parseRoomId, supportCustomerId, type ChatMessage, type ChatUser } from "~/domain/chat";
import { isUuid } from "~/domain/ids";
import { isVisitorRoom, THREAD_WORDS_PER_PAGE, type Thread } from "~/domain/inbox";
import { can } from "~/domain/permissions";
import { controlCharacterMessage, hasControlCharacters } from "~/domain/zod";
import { afterResponse } from "~/utils/background.server";
import { queryRows } from "~/utils/db-cursor.server";
import { logger } from "~/utils/logger.server";
import { chatMessages } from "~/utils/metrics.server";
import { limits } from "~/utils/rate-limit.server";
import { statementShapes } from "~/utils/statement-shapes.server";

import { excerpt, excerptSql, messageNotificationWrites, messageNotifiedColumn, pushMessageNotifications, type MessageNotified } from "./notifications.server";
import { VISIBLE_STATUSES } from "./purchases.server";
import { threadEvents, type Delivery } from "./thread-events.server";
import { toThread, type ThreadRow } from "./thread-view.server";
import { afterEventWrites, eventWrites, eventWritesCounts, jsonOf, messageEventDataText } from "./webhooks.server";

/*
 * Sending a message is ONE statement, so one round trip and one commit (docs/decisions/135):
 * the sender's session is still live, the service is one they may name, the attachment is theirs
 * and unsent; then the message, its thread's summary (decision 095), the writer's read position,
 * its `message.created` webhook event with its deliveries and their jobs, and the other side's
 * notifications (docs/decisions/327), returning what the acknowledgement, `threadUpdated` and the
 * live pushes need. Any check that fails stores nothing.
 */

export interface NewMessage {
  roomId: string;
  /** Null: a contact-form visitor (their thread names them). */
  sender: ChatUser | null;
  receiverId: string | null;
  customerId: string | null;
  /** Support threads: the service the message is about. */
  serviceId?: string | null;
  /** Whether the sender may name any service (staff); otherwise only one the thread's customer bought. */
  anyService?: boolean;
  /** The text; a `file` message's text is its caption, or when that is empty its attachment's name. */
  message: string;
  /** A `file` message: an attachment the sender uploaded to this room and has not sent yet. */
  attachmentId?: string;
  /** A socket's session: the message is stored only while it is live and its account enabled. */
  sessionId?: string;
}

export type RefusalReason = "session" | "service" | "attachment";

/** Nothing was stored: the session ended, the service may not be named, or the attachment is not the sender's to send. */
export class MessageRefusedError extends Error {
  constructor(readonly reason: RefusalReason) {
    super(`message refused: ${reason}`);
  }
}

interface SendRow {
  live: boolean;
  id: string | null;
  createdAt: string | null;
  text: string | null;
  serviceId: string | null;
  serviceName: string | null;
  attachmentId: string | null;
  attachmentName: string | null;
  attachmentType: string | null;
  attachmentSize: number | null;
  threadId: string | null;
  threadCurrent: boolean | null;
  roomId: string | null;
  customerId: string | null;
  visitorEmail: string | null;
  visitorName: string | null;
  status: ThreadRow["status"] | null;
  teamUnread: number | null;
  updatedAt: string | null;
  customerName: string | null;
  customerEmail: string | null;
  assigneeId: string | null;
  assigneeName: string | null;
  senderName: string | null;
  senderImage: string | null;
  deliveries: number;
  deliveryJobs: number;
  /** JSON text of MessageNotified[]: null without a support thread. */
  notified: string | null;
}

/** An ISO time as a JS Date prints it (milliseconds, UTC), whatever the session's time zone. */
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Stores one message with its thread summary and the sender's read position, in one statement.
 * The result is what every client receives; `changed` carries the thread for `threadUpdated`.
 * Throws MessageRefusedError when a check fails (nothing is stored then).
 */
export async function storeMessage(input: NewMessage): Promise<ChatMessage> {
  return (await storeAndNotify(input)).message;
}

/** storeMessage, answering also whom the message's notifications went to (each person's id). */
async function storeAndNotify(input: NewMessage): Promise<{ message: ChatMessage; notifiedUserIds: string[] }> {
  const id = crypto.randomUUID();
  const eventId = crypto.randomUUID();
  const [row] = await queryRows<SendRow>(sendStatementOf(id, eventId, input));
  if (!row?.id) throw new MessageRefusedError(!row?.live ? "session" : input.attachmentId ? "attachment" : "service");

  const file = input.attachmentId !== undefined;
  const sender = input.sender ?? { _id: row.threadId ?? "", name: row.visitorName || row.visitorEmail || "Visitor", profileImage: null };
  const message: ChatMessage = {
    _id: row.id,
    roomId: input.roomId,
    senderId: sender,
    receiverId: input.receiverId,
    message: row.text!,
    messageType: file ? "file" : "text",
    ...(file ? { attachment: { _id: row.attachmentId!, fileName: row.attachmentName!, mimeType: row.attachmentType!, fileSize: row.attachmentSize! } } : {}),
    createdAt: row.createdAt!,
    service: row.serviceId ? { _id: row.serviceId, name: row.serviceName! } : null,
  };
  chatMessages.inc({ type: message.messageType });
  // Everything the message tells (its webhook event, the other side's bell) committed with it
  // (decision 327); what is left after the answer is in memory: the live pushes, the job loop's nudge.
  const notified = row.notified ? (JSON.parse(row.notified) as MessageNotified[]) : [];
  afterResponse("message pushes", async () => {
    pushMessageNotifications(notified);
    await afterEventWrites(eventId, row).catch((error: unknown) =>
      logger.error({ err: error, messageId: message._id }, "the message.created deliveries were not queued"),
    );
  });
  // A newer message that committed first stays the thread's last: the listener reads the thread then.
  if (row.threadId) threadEvents.emit("changed", input.roomId, row.threadCurrent ? threadOf(row, message) : undefined);
  return { message, notifiedUserIds: notified.map((n) => n.userId) };
}

/** Who sends: a signed-in account (the socket's user, or the page's). */
export interface ChatSender {
  id: string;
  name: string;
  role: "user" | "team";
  profileImage: string | null;
}

/** A message as a client asked for it (socket payload or form fields), not yet checked. */
export interface MessageRequest {
  roomId: string;
  text: unknown;
  serviceId?: unknown;
  /** messageType "file": `attachmentId` names an upload of the sender's to this room; `text` is its caption. */
  file?: boolean;
  attachmentId?: unknown;
}

/** Why a send was refused: the words for the sender, and what kind of refusal (the transport picks its answer from it). */
export type RefusedSend = { ok: false; error: string; reason: "rate" | "invalid" | "room" | RefusalReason };
export type SendOutcome = { ok: true; message: ChatMessage; delivery: Delivery } | RefusedSend;

/** MESSAGE_RATE per user across all their sockets and pages (and nodes, while Redis is up). */
export async function allowMessage(userId: string) {
  try {
    await limits.chatMessage.consume(userId);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    logger.warn({ err: error }, "chat rate limit unavailable");
    return true;
  }
}

/**
 * The one way a signed-in account sends a chat message, whatever carried it (the socket's
 * `supportMessage`/`sendMessage`, or the message form of a page without JavaScript): the rate,
 * the text rules, who may write in the room, then the store (one statement, which also re-checks
 * the session). Returns the stored message and whom it goes to, or the refusal in words; the
 * caller delivers it. Other failures (the database) throw.
 */
export async function sendChatMessage(sender: ChatSender, request: MessageRequest, sessionId: string): Promise<SendOutcome> {
  const refuse = (reason: RefusedSend["reason"], error: string): RefusedSend => ({ ok: false, error, reason });
  if (!(await allowMessage(sender.id))) return refuse("rate", CHAT_ERRORS.rate);
  // A file's text is an optional caption: the same rules as a message, except that it may be empty.
  if (typeof request.text !== "string" && !(request.file && request.text == null)) return refuse("invalid", CHAT_ERRORS.invalid);
  const text = typeof request.text === "string" ? request.text.trim() : "";
  if (text.length === 0 && !request.file) return refuse("invalid", CHAT_ERRORS.empty);
  if (text.length > MESSAGE_MAX_LENGTH) return refuse("invalid", CHAT_ERRORS.tooLong);
  // NUL and other control characters are refused in words (lines and tabs are fine), never stored or a failure.
  if (hasControlCharacters(text, { multiline: true })) return refuse("invalid", controlCharacterMessage("The message"));
  const room = parseRoomId(request.roomId);
  if (!room || !can(sender, "chat:join-room", { roomId: request.roomId })) return refuse("room", CHAT_ERRORS.room);
  if (request.file && !isUuid(request.attachmentId)) return refuse("attachment", CHAT_ERRORS.attachment);

  const customerId = room.kind === "support" ? room.customerId : null;
  const otherMember = room.kind === "direct" ? (room.members.find((id) => id !== sender.id) ?? null) : null;
  const serviceId = !request.file && customerId && request.serviceId != null && request.serviceId !== "" ? request.serviceId : null;
  if (serviceId !== null && !isUuid(serviceId)) return refuse("service", CHAT_ERRORS.service);
  const fromTeam = can(sender, "area:team");

  try {
    const { message, notifiedUserIds } = await storeAndNotify({
      roomId: request.roomId,
      sender: { _id: sender.id, name: sender.name, profileImage: sender.profileImage },
      receiverId: customerId ? (fromTeam ? customerId : null) : otherMember,
      customerId,
      serviceId,
      anyService: fromTeam,
      message: text,
      ...(request.file ? { attachmentId: request.attachmentId as string } : {}),
      sessionId,
    });
    return { ok: true, message, delivery: { customerId, otherMember, senderId: sender.id, senderName: sender.name, fromTeam, notifiedUserIds } };
  } catch (error) {
    if (!(error instanceof MessageRefusedError)) throw error;
    const words = { session: CHAT_ERRORS.session, service: CHAT_ERRORS.service, attachment: CHAT_ERRORS.attachment }[error.reason];
    return refuse(error.reason, words);
  }
}

/**
 * sendChatMessage for a page's form (no socket of the sender's carries it): the stored message
 * then goes to the room's live sockets on every node, as the socket path's broadcast does
 * (app/realtime listens for `posted`).
 */
export async function postChatMessage(sender: ChatSender, request: MessageRequest, sessionId: string): Promise<SendOutcome> {
  const outcome = await sendChatMessage(sender, request, sessionId);
  if (outcome.ok) threadEvents.emit("posted", outcome.message, outcome.delivery);
  return outcome;
}

function threadOf(row: SendRow, message: ChatMessage): Thread {
  return toThread({
    id: row.threadId!,
    roomId: row.roomId!,
    customerId: row.customerId,
    visitorEmail: row.visitorEmail,
    visitorName: row.visitorName,
    status: row.status!,
    teamUnread: row.teamUnread!,
    updatedAt: new Date(row.updatedAt!),
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    assigneeId: row.assigneeId,
    assigneeName: row.assigneeName,
    messageId: message._id,
    messageText: message.message,
    messageType: message.messageType,
    messageReceiverId: message.receiverId,
    messageCreatedAt: new Date(message.createdAt),
    // A visitor (no account) has no sender row: toThread names them from the thread.
    senderId: row.senderName !== null ? message.senderId._id : null,
    senderName: row.senderName,
    senderImage: row.senderImage,
    attachmentId: message.attachment?._id ?? null,
    attachmentName: message.attachment?.fileName ?? null,
    attachmentType: message.attachment?.mimeType ?? null,
    attachmentSize: message.attachment?.fileSize ?? null,
  });
}

/** What a send statement's text depends on besides its values: one text per shape (app/utils/statement-shapes.server.ts). */
interface SendShape {
  /** A socket's or page's session to re-check. */
  session: boolean;
  /** A contact-form visitor (no account; their thread names them). */
  visitor: boolean;
  /** A support or visitor thread, whose summary the message moves. */
  threaded: boolean;
  fromCustomer: boolean;
  file: boolean;
  service: boolean;
  /** A support thread's customer: their client's members and staff are notified. */
  customer: boolean;
}

/** Everything a send statement carries as parameters. */
type SendValues = ReturnType<typeof sendValues>;

function sendShape(input: NewMessage): SendShape {
  return {
    session: Boolean(input.sessionId),
    visitor: input.sender === null,
    threaded: supportCustomerId(input.roomId) !== null || isVisitorRoom(input.roomId),
    fromCustomer: input.sender === null || input.sender._id === input.customerId,
    file: input.attachmentId !== undefined,
    service: Boolean(input.serviceId),
    customer: Boolean(input.customerId),
  };
}

function sendValues(id: string, eventId: string, input: NewMessage) {
  return {
    id,
    eventId,
    room: input.roomId,
    senderId: input.sender?._id ?? null,
    senderName: input.sender?.name ?? null,
    sessionId: input.sessionId ?? null,
    service: input.serviceId ?? null,
    anyService: input.anyService === true,
    customerId: input.customerId,
    receiverId: input.receiverId,
    attachmentId: input.attachmentId ?? null,
    message: input.message,
    excerpt: excerpt(input.message),
  };
}

const sendShapes = statementShapes<SendValues>();

/** A message's send statement: built once per shape, its values filled in. */
export function sendStatementOf(id: string, eventId: string, input: NewMessage): SQL {
  const shape = sendShape(input);
  const key = Object.values(shape)
    .map((flag) => (flag ? "1" : "0"))
    .join("");
  return sendShapes(key, (v) => sendStatement(shape, v), sendValues(id, eventId, input));
}

/** The same statement built in full (what `sendStatementOf` must send, byte for byte). */
export function sendStatementInFull(id: string, eventId: string, input: NewMessage): SQL {
  return sendStatement(sendShape(input), sendValues(id, eventId, input));
}

/** The send statement of one shape; every value it carries comes from `v` (each a parameter). */
function sendStatement(shape: SendShape, v: { [K in keyof SendValues]: unknown }): SQL {
  const { file } = shape;

  const live = shape.session
    ? sql`select 1 from sessions s join users u on u.id = s.user_id
        where s.id = ${v.sessionId}::uuid and s.user_id = ${v.senderId}::uuid and s.expires_at > now() and u.disabled_at is null`
    : sql`select 1`;
  const svc = shape.service
    ? sql`select s.id, s.name from services s where s.id = ${v.service}::uuid and (${v.anyService}::boolean or exists (
        select 1 from purchases p where p.user_id = ${v.customerId}::uuid and p.service_id = s.id
        and p.status in (${sql.join(
          VISIBLE_STATUSES.map((st) => sql`${st}`),
          sql`, `,
        )})))`
    : sql`select id, name from services where false`;
  const att = file
    ? sql`update chat_attachments set message_id = ${v.id}::uuid
        where id = ${v.attachmentId}::uuid and room_id = ${v.room} and uploader_id = ${v.senderId}::uuid and message_id is null
        and exists (select 1 from live)
        returning *`
    : sql`select * from chat_attachments where false`;
  const stored = sql.join(
    [sql`exists (select 1 from live)`, ...(shape.service ? [sql`exists (select 1 from svc)`] : []), ...(file ? [sql`exists (select 1 from att)`] : [])],
    sql` and `,
  );
  // Writing counts as reading for a signed-in writer (a contact-form post is not the customer reading).
  const readPosition =
    !shape.visitor && shape.session
      ? sql`, read_position as (
        insert into chat_read_positions (user_id, room_id, last_read_at) select ${v.senderId}::uuid, ${v.room}, clock_timestamp() from msg
        on conflict (user_id, room_id) do update set last_read_at = excluded.last_read_at)`
      : sql``;

  // What the message tells, from what it stores: a visitor (no account) is named by their thread.
  const senderName = shape.visitor
    ? sql`(select coalesce(nullif(visitor_name, ''), nullif(visitor_email, ''), 'Visitor') from thread)`
    : sql`${v.senderName}::text`;
  const event = sql`, event_source as (
      select ${v.eventId}::uuid as id, ${iso(sql`msg.created_at`)} as at, ${messageEventDataText({
        id: jsonOf(sql`${v.id}::text`),
        roomId: jsonOf(sql`${v.room}::text`),
        clientId: jsonOf(sql`${v.customerId}::text`),
        sender: { id: jsonOf(shape.visitor ? sql`coalesce((select id::text from thread), '')` : sql`${v.senderId}::text`), name: jsonOf(senderName) },
        text: jsonOf(sql`msg.message`),
        messageType: file ? "file" : "text",
        attachment: file
          ? { id: jsonOf(sql`att.id`), fileName: jsonOf(sql`att.file_name`), mimeType: jsonOf(sql`att.mime_type`), fileSize: jsonOf(sql`att.file_size`) }
          : null,
        createdAt: jsonOf(iso(sql`msg.created_at`)),
      })} as data
      from msg left join att on true),
    ${eventWrites("message.created")}`;
  // A support thread's other side (docs/decisions/289), told at the message's own time.
  const notifications = shape.customer
    ? sql`, ${messageNotificationWrites({
        senderId: v.senderId,
        customerId: v.customerId,
        title: sql`${"New message from "}::text || ${senderName}`,
        body: sql`(select coalesce(nullif(${v.excerpt}::text, ''), ${excerptSql(sql`msg.message`)}) from msg)`,
        createdAt: sql`(select ${iso(sql`created_at`)} from msg)`,
      })}`
    : sql``;

  return sql`with live as (${live}),
    svc as (${svc}),
    att as (${att}),
    msg as (
      insert into chat_messages (id, room_id, sender_id, receiver_id, customer_id, service_id, message, message_type, created_at)
      select ${v.id}::uuid, ${v.room}, ${v.senderId}::uuid, ${v.receiverId}::uuid, ${v.customerId}::uuid, (select id from svc),
        coalesce(nullif(${v.message}::text, ''), (select file_name from att), ${v.message}::text), ${file ? "file" : "text"}, clock_timestamp()
      where ${stored}
      returning id, created_at, message),
    thread as (${shape.threaded ? threadWrite(v.room, shape.customer ? v.customerId : null, shape.fromCustomer) : sql`select * from chat_threads where false`})
    ${shape.threaded ? sql`, words as (${threadWordsWrite})` : sql``}
    ${readPosition}
    ${event}
    ${notifications}
    select exists (select 1 from live) as "live", msg.id as "id", ${iso(sql`msg.created_at`)} as "createdAt", msg.message as "text",
      svc.id as "serviceId", svc.name as "serviceName",
      att.id as "attachmentId", att.file_name as "attachmentName", att.mime_type as "attachmentType", att.file_size as "attachmentSize",
      th.id as "threadId", th.last_message_id = msg.id as "threadCurrent", th.room_id as "roomId", th.customer_id as "customerId",
      th.visitor_email as "visitorEmail", th.visitor_name as "visitorName", th.status as "status", th.team_unread as "teamUnread",
      ${iso(sql`th.updated_at`)} as "updatedAt", cu.name as "customerName", cu.email as "customerEmail",
      th.assignee_id as "assigneeId", asg.name as "assigneeName", se.name as "senderName", se.profile_image as "senderImage",
      ${eventWritesCounts}, ${shape.customer ? messageNotifiedColumn : sql`null::text as "notified"`}
    from (select 1) as one
      left join msg on true
      left join svc on true
      left join att on true
      left join thread as th on true
      left join users as cu on cu.id = th.customer_id
      left join users as asg on asg.id = th.assignee_id
      left join users as se on se.id = ${v.senderId}::uuid`;
}

/**
 * The message's words onto its thread's newest page (docs/decisions/337), or a new page when that one
 * is full; nothing when that page has every word already. The thread's row, locked by the summary's
 * write above, makes a thread's messages take turns here; a page another message opened meanwhile
 * is merged into (the conflict), never lost.
 */
const threadWordsWrite = sql`insert into chat_thread_words as p (thread_id, page, document)
    select th.id, coalesce(newest.page + (length(newest.document) >= ${sql.raw(String(THREAD_WORDS_PER_PAGE))})::int, 0), said.document
    from thread as th
      cross join (select strip(to_tsvector('simple', message)) as document from msg) as said
      left join lateral (select n.page, n.document from chat_thread_words as n where n.thread_id = th.id order by n.page desc limit 1) as newest on true
    where length(said.document) > 0
      and (newest.document is null or not tsvector_to_array(said.document) <@ tsvector_to_array(newest.document))
    on conflict (thread_id, page) do update set document = p.document || excluded.document`;

/**
 * The thread summary after a message (decision 095): last message forward only, unread counts
 * both ways, the writer's read receipt moved to it and their own unread count cleared (writing
 * counts as reading, on either side), a closed thread reopened by its customer.
 */
function threadWrite(room: unknown, customerId: unknown, fromCustomer: boolean): SQL {
  const set = (src: SQL) => sql`
    last_message_id = case when ${src}.last_message_at >= coalesce(t.last_message_at, 'epoch') then ${src}.last_message_id else t.last_message_id end,
    last_message_at = greatest(t.last_message_at, ${src}.last_message_at),
    ${
      fromCustomer
        ? sql`team_unread = t.team_unread + 1, customer_unread = 0, customer_read_message_id = ${src}.last_message_id, status = 'open',`
        : sql`team_unread = 0, customer_unread = t.customer_unread + 1, team_read_message_id = ${src}.last_message_id,`
    }
    updated_at = clock_timestamp()`;
  if (!customerId) {
    // A visitor's thread exists before its first message (it carries their address).
    return sql`update chat_threads as t set ${set(sql.raw("src"))}
      from (select id as last_message_id, created_at as last_message_at from msg) as src
      where t.room_id = ${room} returning t.*`;
  }
  return sql`insert into chat_threads as t (room_id, customer_id, last_message_id, last_message_at, team_unread, customer_unread,
      team_read_message_id, customer_read_message_id)
    select ${room}, ${customerId}::uuid, msg.id, msg.created_at, ${fromCustomer ? 1 : 0}::int, ${fromCustomer ? 0 : 1}::int,
      ${fromCustomer ? sql`null::uuid` : sql`msg.id`}, ${fromCustomer ? sql`msg.id` : sql`null::uuid`} from msg
    on conflict (room_id) do update set ${set(sql.raw("excluded"))}
    returning t.*`;
}
