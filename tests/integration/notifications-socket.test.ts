import { describe, expect, test } from "vitest";

import { notify } from "~/models/notifications.server";
import { db } from "~/utils/db.server";

import { chatAccount, chatServerForFile, collect, delay, nextEvent, sendSupport } from "../support/chat-helpers";

/* The bell live (docs/decisions/289): a committed notification reaches every socket of its person, and only theirs. */

const { client } = chatServerForFile();

describe("the notification event", () => {
  test("reaches each of the person's sockets with their unread count, and no one else's", async () => {
    const [ada, bea] = await Promise.all([chatAccount("user", "Ada"), chatAccount("team", "Bea")]);
    const [phone, laptop, other] = await Promise.all([client(ada), client(ada), client(bea)]);
    const elsewhere = collect(other, "notification");
    const arrivals = Promise.all([nextEvent(phone, "notification"), nextEvent(laptop, "notification")]);

    await notify([ada.id], { kind: "report_ready", title: "Your report is ready", url: "/dashboard/reports" });
    const [onPhone, onLaptop] = await arrivals;
    expect(onPhone).toMatchObject({ unread: 1, notification: { kind: "report_ready", title: "Your report is ready", readAt: null } });
    expect(onLaptop.notification._id).toBe(onPhone.notification._id);

    await delay(100);
    expect(elsewhere).toEqual([]);
  });

  test("a client's support message reaches staff's bell live; staff's reply reaches the client's", async () => {
    const [customer, staff] = await Promise.all([chatAccount("user", "Casey Client"), chatAccount("team", "Sam Staff")]);
    const [customerSocket, staffSocket] = await Promise.all([client(customer), client(staff)]);
    const toStaff = nextEvent(staffSocket, "notification", ({ notification }) => notification.url === `/dashboard/inbox/${customer.id}`);
    expect((await sendSupport(customerSocket, { message: "Can we move Friday's post?", supportRoomId: `support-${customer.id}` })).ok).toBe(true);
    expect((await toStaff).notification).toMatchObject({ kind: "message", title: "New message from Casey Client", body: "Can we move Friday's post?" });

    const toCustomer = nextEvent(customerSocket, "notification");
    expect((await sendSupport(staffSocket, { message: "Yes, done.", supportRoomId: `support-${customer.id}`, userId: customer.id })).ok).toBe(true);
    expect((await toCustomer).notification).toMatchObject({ kind: "message", title: "New message from Sam Staff", url: "/dashboard/messages" });
  });

  test("a notification written in a transaction goes out only once it has committed", async () => {
    const ada = await chatAccount("user", "Ada");
    const socket = await client(ada);
    const seen = collect(socket, "notification");
    const pending = await db.transaction((tx) => notify([ada.id], { kind: "billing", title: "Payment failed", url: "/dashboard/receipts" }, tx));
    await delay(100);
    expect(seen).toEqual([]);
    await pending.afterCommit();
    await expect.poll(() => seen.length).toBe(1);
  });
});
