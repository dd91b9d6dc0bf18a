/*
 * Approvals that do not stall (decisions 292–294): how a client's posts are approved, what a
 * post's review deadline is, and the words people read about it.
 */

export const APPROVAL_MODES = ["none", "required", "two_step"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export const APPROVERS = ["any", "all"] as const;
export type Approvers = (typeof APPROVERS)[number];
export const ON_DEADLINE = ["hold", "approve"] as const;
export type OnDeadline = (typeof ON_DEADLINE)[number];

/** At most 30 days between the review deadline and the post's time. */
export const MAX_REVIEW_HOURS = 720;

export interface Approval {
  mode: ApprovalMode;
  approvers: Approvers;
  onDeadline: OnDeadline;
  reviewHours: number;
}

export const DEFAULT_APPROVAL: Approval = { mode: "required", approvers: "any", onDeadline: "hold", reviewHours: 48 };

export const APPROVAL_MODE_LABELS: Record<ApprovalMode, string> = {
  none: "No approval: a post sent for review is approved at once",
  required: "The client approves",
  two_step: "A second team member checks first, then the client approves",
};
export const APPROVERS_LABELS: Record<Approvers, string> = {
  any: "One approval is enough",
  all: "Every approver must approve",
};
export const ON_DEADLINE_LABELS: Record<OnDeadline, string> = {
  hold: "Hold the post until someone decides",
  approve: "Approve it automatically",
};

/** Where a post in review waits: for a second team member (two_step), or for the client. */
export const REVIEW_STAGES = ["team", "client"] as const;
export type ReviewStage = (typeof REVIEW_STAGES)[number];

export const REVIEW_DECISIONS = ["approve", "request_changes"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** A review link works until this long after the post's review deadline. */
export const REVIEW_LINK_GRACE_MS = 7 * 24 * 3600 * 1000;
/** The first reminder goes this long before the deadline. */
export const REMINDER_AHEAD_MS = 24 * 3600 * 1000;

/** The deadline of a post: its time minus the client's review hours. */
export function reviewDeadline(scheduledAt: Date, reviewHours: number): Date {
  return new Date(scheduledAt.getTime() - reviewHours * 3600 * 1000);
}

export const APPROVAL_MESSAGES = {
  clientNotFound: "Client not found.",
  teamStage: "A team member checks this post before the client reviews it.",
  teamFirst: "Another team member must check this post before the client can review it.",
  notSender: "Someone other than the team member who sent this post for review checks it.",
  clientOnly: "Only the client approves this post.",
  linkInvalid: "This review link is not valid. Open the latest e-mail about this post, or sign in to review it.",
  linkUsed: "This review link has already been used. Sign in to see the post and what was decided.",
  linkExpired: "This review link has expired. Sign in to review the post.",
  linkMember: "Your role in your company's account no longer covers approving posts: ask an owner.",
  linkClosed: "This post is no longer waiting for your review.",
} as const;
