import { parseRoomId } from "./chat";

/**
 * Who may do what: the one place that decides. Loaders, actions, API routes and socket
 * handlers ask `can()`; the UI asks the same function what to show.
 */

export type Role = "user" | "team";
export interface Actor {
  id: string;
  role: Role;
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
  | "brief:answer";

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
      return actor.role === "team";
    case "area:customer":
    case "purchases:list-own":
    case "reports:list-own":
    case "subscriptions:list-own":
    case "billing:manage":
    case "calendar:own":
      return actor.role === "user";
    case "purchase:read":
    case "report:read":
    case "subscription:read":
    case "receipt:read":
    case "chat:read-conversation":
    case "post:read":
      if (actor.role === "team") return true;
      return !!resource && "ownerId" in resource && resource.ownerId === actor.id;
    case "post:review":
    case "brief:answer":
      // The customer's own: staff comment on a post but do not approve it for them; they read a brief but do not answer it.
      return actor.role === "user" && !!resource && "ownerId" in resource && resource.ownerId === actor.id;
    case "chat:join-room":
      return !!resource && "roomId" in resource && canJoinRoom(actor, resource.roomId);
  }
}

/**
 * Support rooms: the customer themselves and any team member. Direct rooms: their two members,
 * and only team members (team ↔ team, team ↔ customer): a customer writes only in their own
 * support thread and gets a team member's direct message through their own user room.
 */
export function canJoinRoom(actor: Actor, roomId: string): boolean {
  const room = parseRoomId(roomId);
  if (!room) return false;
  if (room.kind === "support") return actor.role === "team" || room.customerId === actor.id;
  return actor.role === "team" && room.members.includes(actor.id);
}
