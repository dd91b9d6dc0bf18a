import { UUID_SOURCE } from "./ids";

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
  | "stats:team"
  | "users:list"
  | "purchases:list-own"
  | "purchase:read"
  | "purchase:update-status"
  | "purchases:list-any"
  | "reports:list-own"
  | "report:read"
  | "report:upload"
  | "chat:join-room"
  | "chat:read-conversation";

/** Resource owners: the customer a purchase, report or conversation belongs to. */
export interface Owned {
  ownerId: string | null;
}

export function isTeam(actor: Actor | null | undefined): actor is Actor & { role: "team" } {
  return actor?.role === "team";
}

export function can(actor: Actor | null | undefined, action: Action, resource?: Owned | { roomId: string }): boolean {
  if (!actor) return false;
  switch (action) {
    case "dashboard:view":
      return true;
    case "stats:team":
    case "users:list":
    case "purchases:list-any":
    case "purchase:update-status":
    case "report:upload":
      return actor.role === "team";
    case "purchases:list-own":
    case "reports:list-own":
      return actor.role === "user";
    case "purchase:read":
    case "report:read":
    case "chat:read-conversation":
      if (actor.role === "team") return true;
      return !!resource && "ownerId" in resource && resource.ownerId === actor.id;
    case "chat:join-room":
      return !!resource && "roomId" in resource && canJoinRoom(actor, resource.roomId);
  }
}

const SUPPORT_ROOM = new RegExp(`^support-(${UUID_SOURCE})$`);
const DIRECT_ROOM = new RegExp(`^(${UUID_SOURCE})-(${UUID_SOURCE})$`);

export function supportRoomId(customerId: string) {
  return `support-${customerId}`;
}

export function directRoomId(a: string, b: string) {
  return [a, b].sort().join("-");
}

/** Support rooms: the customer themselves and any team member. Direct rooms: their two members, ids sorted. */
export function canJoinRoom(actor: Actor, roomId: string): boolean {
  const support = SUPPORT_ROOM.exec(roomId);
  if (support) return actor.role === "team" || support[1] === actor.id;
  const direct = DIRECT_ROOM.exec(roomId);
  if (direct) return direct[1] < direct[2] && (direct[1] === actor.id || direct[2] === actor.id);
  return false;
}
