import { parseRoomId } from "./chat";
import { roleCovers, type ClientCapability, type ClientRole } from "./clients";
import type { Role } from "./status";

/**
 * Who may do what: the one place that decides. Loaders, actions, API routes and socket
 * handlers ask `can()`; the UI asks the same function what to show.
 */

export interface Actor {
  id: string;
  role: Role;
  /** A customer's client (absent: a client of one with the account's id). */
  clientId?: string | null;
  /** A customer's role in their client (absent: owner). */
  clientRole?: ClientRole | null;
}

/** The id a customer's belongings are kept under: their client's. */
export function ownerKey(actor: Actor): string {
  return actor.clientId ?? actor.id;
}

/** Whether a customer's role in their client covers a capability (staff: never, they are not a client's). */
export function memberCan(actor: Actor, capability: ClientCapability): boolean {
  return actor.role === "user" && roleCovers(actor.clientRole ?? "owner", capability);
}

export type Action =
  | "dashboard:view"
  | "area:team"
  | "area:customer"
  | "stats:team"
  | "users:list"
  | "purchases:list-own"
  | "purchase:read"
  | "purchase:update-status"
  | "purchases:list-any"
  | "reports:list-any"
  | "reports:list-own"
  | "report:read"
  | "report:upload"
  | "catalogue:manage"
  | "subscriptions:manage"
  | "refund:create"
  | "subscriptions:list-own"
  | "subscription:read"
  | "billing:manage"
  | "receipt:read"
  | "chat:join-room"
  | "chat:read-conversation"
  | "inbox:manage"
  | "team:manage"
  | "posts:manage"
  | "post:read"
  | "post:review"
  | "calendar:own"
  | "brief:answer"
  | "post:comment"
  | "client:read"
  | "client:manage"
  | "clients:list";

/** Resource owners: the customer a purchase, report or conversation belongs to. */
export interface Owned {
  ownerId: string | null;
}

export function can(actor: Actor | null | undefined, action: Action, resource?: Owned | { roomId: string }): boolean {
  if (!actor) return false;
  switch (action) {
    case "dashboard:view":
      return true;
    case "area:team":
    case "inbox:manage":
    case "stats:team":
    case "users:list":
    case "purchases:list-any":
    case "reports:list-any":
    case "purchase:update-status":
    case "report:upload":
    case "catalogue:manage":
    case "subscriptions:manage":
    case "refund:create":
    case "team:manage":
    case "posts:manage":
    case "clients:list":
      return actor.role === "team";
    case "area:customer":
    case "client:read":
      return actor.role === "user";
    case "client:manage":
      return memberCan(actor, "manage");
    case "purchases:list-own":
    case "reports:list-own":
    case "calendar:own":
      return memberCan(actor, "work");
    case "subscriptions:list-own":
      // Which plan runs shows with the work; the plan's billing with billing.
      return memberCan(actor, "work") || memberCan(actor, "billing");
    case "billing:manage":
      return memberCan(actor, "billing");
    case "purchase:read":
    case "report:read":
    case "post:read":
      return actor.role === "team" || (memberCan(actor, "work") && ownsIt(actor, resource));
    case "subscription:read":
      return actor.role === "team" || ((memberCan(actor, "work") || memberCan(actor, "billing")) && ownsIt(actor, resource));
    case "receipt:read":
      return actor.role === "team" || (memberCan(actor, "billing") && ownsIt(actor, resource));
    case "chat:read-conversation":
      return actor.role === "team" || (memberCan(actor, "chat") && ownsIt(actor, resource));
    case "post:review":
      // The client's: staff comment on a post but do not approve it for them.
      return memberCan(actor, "approve") && ownsIt(actor, resource);
    case "brief:answer":
    case "post:comment":
      // Staff read a brief but do not answer it.
      return memberCan(actor, "answer") && ownsIt(actor, resource);
    case "chat:join-room":
      return !!resource && "roomId" in resource && canJoinRoom(actor, resource.roomId);
  }
}

function ownsIt(actor: Actor, resource: Owned | { roomId: string } | undefined): boolean {
  return !!resource && "ownerId" in resource && resource.ownerId === ownerKey(actor);
}

/**
 * Support rooms: the client's members who may chat and any team member. Direct rooms: their two members,
 * and only team members (team ↔ team, team ↔ customer): a customer writes only in their own
 * support thread and gets a team member's direct message through their own user room.
 */
export function canJoinRoom(actor: Actor, roomId: string): boolean {
  const room = parseRoomId(roomId);
  if (!room) return false;
  if (room.kind === "support") return actor.role === "team" || (memberCan(actor, "chat") && room.customerId === ownerKey(actor));
  return actor.role === "team" && room.members.includes(actor.id);
}
