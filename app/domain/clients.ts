import type { z } from "zod";

import type { clientRefJson, memberJson } from "./schemas/clients";

/**
 * A client is a company of one or more members, each with their own sign-in and one of four roles.
 * The client's id is the id of the account it started from (every customer account that existed
 * before client teams became the owner of a client of one with the same id), so what belongs to a
 * customer (purchases, plans, reports, briefs, posts, the support thread) belongs to the client
 * without a copy. Decision 283.
 */
export const CLIENT_ROLES = ["owner", "approver", "member", "billing"] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

/** What a role covers (the role table of docs/permissions.md). */
export type ClientCapability =
  /** Services, reports, the calendar and briefs, and which plan runs. */
  | "work"
  /** The client's support thread. */
  | "chat"
  /** Answering briefs, commenting on posts. */
  | "answer"
  /** Approving posts or asking for changes. */
  | "approve"
  /** Plans, receipts and billing; buying, switching, cancelling. */
  | "billing"
  /** Inviting and removing members, changing roles, renaming the client. */
  | "manage";

const COVERS: Record<ClientRole, readonly ClientCapability[]> = {
  owner: ["work", "chat", "answer", "approve", "billing", "manage"],
  approver: ["work", "chat", "answer", "approve"],
  member: ["work", "chat", "answer"],
  billing: ["billing"],
};

export function roleCovers(role: ClientRole | null | undefined, capability: ClientCapability): boolean {
  return !!role && COVERS[role].includes(capability);
}

/** The roles that cover a capability (who an e-mail about it reaches). */
export function rolesCovering(capability: ClientCapability): ClientRole[] {
  return CLIENT_ROLES.filter((role) => COVERS[role].includes(capability));
}

export const CLIENT_ROLE_LABELS: Record<ClientRole, string> = {
  owner: "Owner",
  approver: "Approver",
  member: "Member",
  billing: "Billing",
};

/** A client holds at most this many members (invitations included). */
export const MAX_CLIENT_MEMBERS = 50;

/** A client's member and a client named by id, as the API sends them: their schemas' types (app/domain/schemas/clients.ts). */
export type MemberJson = z.infer<typeof memberJson>;
/** A client's member as the screens take it (decision 309): its id as `id`; the API sends it as MemberJson. */
export interface ClientMember {
  id: string;
  name: string;
  email: string;
  role: ClientRole;
  joinedAt: string | null;
}
export type ClientRef = z.infer<typeof clientRefJson>;

/** The client's name to show beside a person's, or null when it is theirs (a client of one named after its owner). */
export function clientNameBeside(personName: string, client: { name: string } | null | undefined): string | null {
  return client && client.name !== personName ? client.name : null;
}

/** A member's role does not cover what they asked for (403). */
export const ROLE_REFUSED = "Your role in your company's account does not cover this: ask an owner.";
