/** The Socket.IO events of contracts §4, shared by the server and the browser. */

export interface ChatUser {
  _id: string;
  name: string;
  profileImage: string | null;
}

export interface ChatMessage {
  _id: string;
  roomId: string;
  senderId: ChatUser;
  receiverId: string | null;
  message: string;
  messageType: "text";
  createdAt: string;
  /** The service a customer wrote about (support threads only); null when none was given. */
  service: { _id: string; name: string } | null;
}

/** Answer to a client's optional acknowledgement callback: the stored message or the error text. */
export type SendResult = { ok: true; message: ChatMessage } | { ok: false; error: string };
type Ack = (result: SendResult) => void;

export interface SendMessagePayload {
  receiverId?: string;
  message: string;
  messageType?: string;
  roomId: string;
  serviceId?: string | null;
}

export interface SupportMessagePayload {
  message: string;
  messageType?: string;
  supportRoomId?: string;
  userId?: string;
  serviceId?: string | null;
}

export interface ClientToServerEvents {
  joinRoom: (payload: { roomId: string; otherUserId?: string }) => void;
  sendMessage: (payload: SendMessagePayload, ack: Ack) => void;
  supportMessage: (payload: SupportMessagePayload, ack: Ack) => void;
  /** Team only: the customers with an open connection on any node (answered through the callback). */
  onlineUsers: (ack: (userIds: string[]) => void) => void;
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
}

export interface SocketData {
  user: { id: string; name: string; role: "user" | "team"; profileImage: string | null };
}

/** Contracts §4 limits, shared so the input can stop what the server would refuse. */
export const MESSAGE_MAX_LENGTH = 2000;
export const MESSAGE_RATE = { points: 20, windowMs: 10_000 };

export const CHAT_ERRORS = {
  empty: "Message cannot be empty.",
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH.toLocaleString("en-US")} characters.`,
  rate: "You are sending messages too fast. Please wait a few seconds.",
  room: "You cannot join this conversation.",
  service: "That service was not found.",
  invalid: "Invalid message.",
  failed: "Message could not be sent. Please try again.",
} as const;
