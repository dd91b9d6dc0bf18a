import { z } from "~/domain/zod";

/**
 * One row of staff's inbox list, as the page's loader sends it and as a live `threadUpdated` becomes
 * (`toInboxRow`, app/domain/inbox.ts): only what the row shows, flat, a key left out when it is
 * false, zero or none (decision 320). Strict: a key the row does not declare fails the check, so the
 * list's data cannot grow back into the whole thread unseen. Times are milliseconds since 1970.
 */
export const inboxRowJson = z.strictObject({
  /** The thread's key: its customer's account id, or a contact-form visitor's thread id (its page is /dashboard/inbox/:id). */
  id: z.string(),
  name: z.string(),
  /** The customer's client, only when named otherwise than the customer (clientNameBeside). */
  client: z.string().optional(),
  email: z.string(),
  visitor: z.literal(true).optional(),
  /** The last message, when there is one: when it was sent, its text cut to what a row can show, who sent it unless the customer, whether a file. */
  at: z.number().int().optional(),
  text: z.string().optional(),
  by: z.string().optional(),
  file: z.literal(true).optional(),
  unread: z.number().int().positive().optional(),
  closed: z.literal(true).optional(),
  /** The assignee's name. */
  assignee: z.string().optional(),
  /** When the thread last changed, left out when that was its last message (`at`): of two copies the newer one is shown (latestThread). */
  updated: z.number().int().optional(),
});
