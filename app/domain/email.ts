/**
 * A stored e-mail as staff see it on an order's or a customer's page: its state follows its sending
 * job. No API sends it: ids as `id` (decision 309).
 */
export interface ListedEmail {
  id: string;
  recipient: string;
  subject: string;
  state: "queued" | "sent" | "retrying" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}
