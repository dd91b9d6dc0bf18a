import { z } from "zod";

import type { NotificationJson } from "~/domain/notifications";
import { notificationJson } from "~/domain/schemas/api";
import { notificationEvents } from "~/models/notifications.server";

import { userRoom, type IoServer } from "./rooms.server";
import { fitsWireSchema } from "./wire-check.server";

/*
 * Notifications live (docs/decisions/289): each committed notification goes out as `notification`
 * to its person's own room, which holds every socket of theirs on every node (the Redis adapter),
 * with their unread count so the bell needs no second request.
 */

const notificationEvent = z.object({ notification: notificationJson, unread: z.number().int() });

export function registerNotificationEvents(io: IoServer) {
  const onCreated = (userId: string, notification: NotificationJson, unread: number) => {
    const payload = { notification, unread };
    if (fitsWireSchema("notification", notificationEvent, payload)) io.to(userRoom(userId)).emit("notification", payload);
  };
  notificationEvents.on("created", onCreated);
  const close = io.close.bind(io);
  io.close = (fn) => {
    notificationEvents.off("created", onCreated);
    return close(fn);
  };
}
