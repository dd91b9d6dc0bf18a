/*
 * The audit log's vocabulary (decision 220): every staff action that changes money,
 * access or what a customer sees, as `area.verb`, with the words the staff page shows for it.
 * Adding an action here is the whole registration: the model, the filter and the page read this.
 */

export const AUDIT_ACTIONS = {
  "order.refund": "Refunded an order",
  "service.create": "Added a service",
  "service.update": "Changed a service",
  "service.packages": "Changed a service's packages",
  "plan.update": "Changed a plan",
  "service.brief": "Changed a service's brief questions",
  "plan.brief": "Changed a plan's brief questions",
  "team.invite": "Invited a colleague",
  "team.invite_resend": "Sent an invitation again",
  "account.disable": "Disabled an account",
  "account.enable": "Enabled an account",
  "report.upload": "Uploaded a report",
  "report.replace": "Replaced a report",
  "report.delete": "Deleted a report",
  "thread.assign": "Assigned a conversation",
  "purchase.status": "Changed a purchase's status",
  "purchase.assign": "Assigned a purchase",
  "subscription.cancel": "Cancelled a plan at period end",
  "subscription.resume": "Resumed a plan",
  "subscription.end": "Ended a plan now",
  "post.status": "Changed a post's status",
  "post.review": "Approved a post or asked for changes",
  "post.auto_approve": "Approved a post at its review deadline",
  "client.approval": "Changed a client's approval settings",
  "security.two_factor_on": "Turned on two-factor sign-in",
  "security.two_factor_off": "Turned off two-factor sign-in",
  "security.recovery_codes": "Made new recovery codes",
  "security.passkey_add": "Added a passkey",
  "security.passkey_remove": "Removed a passkey",
  "job.retry": "Retried a failed background job",
  "email.resend": "Sent an e-mail again",
  "client.rename": "Renamed a client",
  "client.invite": "Invited a client's member",
  "client.role": "Changed a client member's role",
  "client.remove": "Removed a client's member",
  "client.leave": "Left a client",
  "webhook.create": "Added a webhook",
  "webhook.update": "Changed a webhook",
  "webhook.delete": "Deleted a webhook",
  "api_key.create": "Made an API key",
  "api_key.revoke": "Revoked an API key",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_KEYS = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export type AuditTargetKind =
  "order" | "service" | "plan" | "user" | "report" | "thread" | "purchase" | "subscription" | "post" | "job" | "email" | "client" | "webhook";

/**
 * An entry as the staff's log takes it (decision 309): ids as `id`, the actor and target as named
 * when they acted. The API sends it as AuditEntryJson (`_id`).
 */
export interface AuditEntry {
  id: string;
  actor: { id: string | null; name: string };
  action: AuditAction;
  target: { kind: string; id: string; label: string };
  detail: string;
  createdAt: string;
}

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 200;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

/** Where staff open what an entry names; null when there is no page for it. */
export function auditTargetHref(kind: string, id: string): string | null {
  switch (kind) {
    case "order":
      return `/dashboard/orders/${id}`;
    case "user":
      return `/dashboard/users/${id}`;
    case "thread":
      return `/dashboard/inbox/${id}`;
    case "service":
      return `/dashboard/catalogue/services/${id}`;
    case "plan":
      return `/dashboard/catalogue/plans/${id}`;
    case "subscription":
      return `/dashboard/subscriptions/${id}`;
    case "job":
      return "/dashboard/jobs";
    case "webhook":
      return "/dashboard/webhooks";
    case "post":
      return `/dashboard/calendar/posts/${id}`;
    default:
      return null;
  }
}

/** When an entry was made, to the minute, in UTC (named, so no reader guesses the zone). */
export function formatAuditTime(iso: string): string {
  return `${new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

/** The detail of a purchase.status entry that marks work completed: the order's history names its author by it. */
export const PURCHASE_COMPLETED_DETAIL = "Marked completed";
