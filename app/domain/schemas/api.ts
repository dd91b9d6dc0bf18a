import { THREAD_STATUSES } from "~/domain/inbox";
import { NOTIFICATION_KINDS } from "~/domain/notifications";
import { PURCHASE_STATUSES, ROLES } from "~/domain/status";
import { z } from "~/domain/zod";

/*
 * The JSON shapes the API answers with, as zod schemas: the OpenAPI document is generated from
 * them (GET /api/openapi.json, docs/api.md). Dates are ISO strings, money is in dollars.
 */

/** `{ success: true, data }`: the envelope of the services, reports and purchases routes. */
export const successData = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
/** `{ status: "success", data }`: the envelope of the users and chat routes. */
export const statusData = <T extends z.ZodType>(data: T) => z.object({ status: z.literal("success"), data });
/** `{ status: "success", message }`: an action with nothing more to say. */
export const statusMessage = z.object({ status: z.literal("success"), message: z.string() });

export const isoDate = z.string().meta({ format: "date-time" });
const id = z.string().meta({ format: "uuid" });

/** Whether a purchase or subscription has a brief to answer, and when it was answered ("Brief needed" until then). */
export const briefStatusJson = z.object({ required: z.boolean(), submittedAt: isoDate.nullable() });

export const serviceJson = z.object({
  _id: id,
  name: z.string(),
  price: z.number().meta({ description: "In dollars, e.g. 149.99." }),
  currency: z.string(),
  description: z.string().nullable(),
});

export const purchaseJson = z.object({
  _id: id,
  id,
  amount: z.number().meta({ description: "In dollars." }),
  currency: z.string(),
  quantity: z.number().int(),
  status: z.enum(PURCHASE_STATUSES),
  createdAt: isoDate,
  stripeSessionId: z.string().nullable(),
  service: z.object({ _id: id, name: z.string(), description: z.string().nullable() }),
  assignee: z.object({ _id: id, name: z.string() }).nullable().meta({ description: "The team member doing the work." }),
  dueAt: isoDate.nullable(),
  brief: briefStatusJson,
});

export const reportJson = z.object({
  _id: id,
  id,
  title: z.string(),
  description: z.string().nullable(),
  fileName: z.string(),
  fileSize: z.number().int().meta({ description: "In bytes." }),
  mimeType: z.string(),
  createdAt: isoDate,
  service: z.object({ _id: id, name: z.string() }),
  userId: id,
});

export const apiUserJson = z.object({ _id: id, id, name: z.string(), email: z.string(), role: z.enum(ROLES) });
export const userJson = apiUserJson.extend({ createdAt: isoDate });
/** The login body of POST /api/auth/login (and of its second step, POST /api/auth/2fa). */
export const signedInResponse = z.object({ status: z.literal("success"), message: z.string(), data: z.object({ token: z.string(), user: apiUserJson }) });

export const chatMessageJson = z.object({
  _id: id,
  roomId: z.string(),
  senderId: z.object({ _id: id, name: z.string(), profileImage: z.string().nullable() }),
  receiverId: z.string().nullable(),
  message: z.string(),
  messageType: z.enum(["text", "file"]),
  attachment: z.object({ _id: id, fileName: z.string(), mimeType: z.string(), fileSize: z.number().int() }).optional(),
  createdAt: isoDate,
  service: z.object({ _id: id, name: z.string() }).nullable(),
});

export const chatAttachmentJson = z.object({
  _id: id,
  fileName: z.string(),
  mimeType: z.string(),
  fileSize: z.number().int().meta({ description: "In bytes." }),
});

/** A notification: GET /api/notifications and the socket's `notification` event. */
export const notificationJson = z.object({
  _id: id,
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  readAt: isoDate.nullable(),
  createdAt: isoDate,
});

/** A support thread in the inbox; a visitor's `customer._id` is the thread's own id. */
export const threadJson = z.object({
  _id: id,
  roomId: z.string(),
  kind: z.enum(["customer", "visitor"]),
  customer: z.object({ _id: id, name: z.string(), email: z.string() }),
  client: z.object({ _id: id, name: z.string() }).nullable(),
  lastMessage: chatMessageJson.nullable(),
  unread: z.number().int(),
  status: z.enum(THREAD_STATUSES),
  assignee: z.object({ _id: id, name: z.string() }).nullable(),
  updatedAt: isoDate,
});
