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
}

export interface ClientToServerEvents {
  joinRoom: (payload: { roomId: string; otherUserId?: string }) => void;
  sendMessage: (payload: { receiverId?: string; message: string; messageType?: string; roomId: string }) => void;
  supportMessage: (payload: { message: string; messageType?: string; supportRoomId?: string; userId?: string }) => void;
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
}

export interface SocketData {
  user: { id: string; name: string; role: "user" | "team"; profileImage: string | null };
}
