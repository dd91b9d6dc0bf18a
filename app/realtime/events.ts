import type { ChatMessage } from "~/domain/chat";
import type { ClientRole } from "~/domain/clients";
import type { Thread } from "~/domain/inbox";
import type { NotificationJson } from "~/domain/notifications";
import type { PostJson } from "~/domain/schemas/calendar";

export { CHAT_ERRORS, type ChatMessage } from "~/domain/chat";

/** The Socket.IO events, shared by the server and the browser (docs/api.md). */

/** Answer to a client's optional acknowledgement callback: the stored message or the error text. */
export type SendResult = { ok: true; message: ChatMessage } | { ok: false; error: string };
type Ack = (result: SendResult) => void;

export interface SendMessagePayload {
  receiverId?: string;
  message: string;
  messageType?: string;
  roomId: string;
  serviceId?: string | null;
  /** messageType "file": an attachment uploaded to this room with POST /api/chat/attachments; `message` is its caption (may be empty). */
  attachmentId?: string;
}

export interface SupportMessagePayload {
  message: string;
  messageType?: string;
  supportRoomId?: string;
  userId?: string;
  serviceId?: string | null;
  /** messageType "file": an attachment uploaded to this room with POST /api/chat/attachments; `message` is its caption (may be empty). */
  attachmentId?: string;
}

/** Typing indicators and read receipts, relayed to the room's other members. */
export interface TypingEvent {
  roomId: string;
  userId: string;
  /** Ours: who is typing, for "Taylor is typing…". */
  name?: string;
}
export interface ReadEvent {
  roomId: string;
  userId: string;
  messageId: string;
}

export interface ClientToServerEvents {
  joinRoom: (payload: { roomId: string; otherUserId?: string }) => void;
  sendMessage: (payload: SendMessagePayload, ack: Ack) => void;
  supportMessage: (payload: SupportMessagePayload, ack: Ack) => void;
  /** Team only: the customers with an open connection on any node (answered through the callback). */
  onlineUsers: (ack: (userIds: string[]) => void) => void;
  /** At most one per 2 s per socket is relayed. */
  typing: (payload: { roomId: string }) => void;
  /** The sender has seen the room up to messageId (a message of that room, else refused with `error`). */
  read: (payload: { roomId: string; messageId: string }, ack?: (result: { ok: boolean; error?: string }) => void) => void;
}

export interface ServerToClientEvents {
  joinedRoom: (payload: { roomId: string }) => void;
  supportRoomJoined: (payload: { roomId: string }) => void;
  teamRoomJoined: (payload: { roomId: string }) => void;
  newMessage: (message: ChatMessage) => void;
  supportMessage: (message: ChatMessage) => void;
  supportMessageSent: (message: ChatMessage) => void;
  userConnected: (payload: { userId: string; name: string }) => void;
  userDisconnected: (payload: { userId: string }) => void;
  error: (payload: { message: string }) => void;
  /** Ours: this node lost Redis at `since` (server time); fetch what may have been missed since then. */
  resync: (payload: { since: string }) => void;
  typing: (payload: TypingEvent) => void;
  read: (payload: ReadEvent) => void;
  /** To the team room: a thread's last message, unread count, status or assignee changed. */
  threadUpdated: (thread: Thread) => void;
  /** A content calendar post changed: to the team room, and to the customer's sockets unless it is a draft. */
  postUpdated: (post: PostJson) => void;
  /** To the person's sockets on every node: a new notification and their unread count after it. */
  notification: (payload: { notification: NotificationJson; unread: number }) => void;
}

export interface SocketData {
  user: {
    id: string;
    name: string;
    role: "user" | "team";
    profileImage: string | null;
    /** A customer's client and role in it (null for staff): what the socket may join. */
    clientId: string | null;
    clientRole: ClientRole | null;
  };
  /** The session that opened the socket: revoking it disconnects the socket. */
  sessionId: string;
}
