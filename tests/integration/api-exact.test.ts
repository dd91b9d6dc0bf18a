import Stripe from "stripe";
import { afterAll, describe, expect, test } from "vitest";

import { FAKE_WEBHOOK_SECRET, pointAppAtFakeStripe, startFakeStripe } from "../fakes/stripe";

/*
 * The API's edges that answered other than documented (decision 151): a malformed percent-encoding,
 * a signed but malformed Stripe event, a multipart upload with too many fields, an upload without
 * its roomId, and the owner's id written in capitals.
 */
const fake = await startFakeStripe();
pointAppAtFakeStripe(fake.url);

const { chatAccount } = await import("../support/chat-helpers");
const { samples } = await import("../support/reports-cases");
const { freshContext } = await import("../support/requests");
const { supportRoomId } = await import("~/domain/chat");
const purchase = await import("~/routes/api+/services+/purchases.$id");
const webhook = await import("~/routes/api+/stripe.webhook");
const attachments = await import("~/routes/api+/chat+/attachments");
const conversation = await import("~/routes/api+/chat+/conversation.$userId");

afterAll(() => fake.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe("the API answers exactly", () => {
  test("a malformed percent-encoding in an /api path is a JSON 400, never an HTML page", async () => {
    const staff = await chatAccount("team");
    const request = new Request("http://localhost/api/services/purchases/%ZZ", { headers: bearer(staff.token) });
    const response = await purchase.loader({ request, params: { id: "%ZZ" }, context: freshContext() });
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ success: false, code: "MALFORMED_PATH" });
  });

  test("a correctly signed Stripe event without its data is a 400, not a 500 that Stripe retries", async () => {
    const malformed = [
      { id: "evt_malformed_1", type: "checkout.session.completed" },
      { id: "evt_malformed_2", type: "charge.refunded", data: {} },
      { id: "evt_malformed_3", type: "invoice.paid", data: { object: "in_1" } },
      { type: "checkout.session.expired", data: { object: {} } },
    ];
    for (const event of malformed) {
      const body = JSON.stringify(event);
      const signed = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: FAKE_WEBHOOK_SECRET });
      const request = new Request("http://localhost/api/stripe/webhook", {
        method: "POST",
        headers: { "Stripe-Signature": signed, "Content-Type": "application/json" },
        body,
      });
      const response = await webhook.action({ request, params: {}, context: freshContext() });
      expect(response.status, JSON.stringify(event)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, code: "MALFORMED_EVENT" });
    }
  });

  test("an upload is capped at 1,000 fields, and one without roomId is a 400", async () => {
    const customer = await chatAccount("user");
    const upload = async (form: FormData) => {
      const request = new Request("http://localhost/api/chat/attachments", { method: "POST", headers: bearer(customer.token), body: form });
      const response = await attachments.action({ request, params: {}, context: freshContext() });
      return { status: response.status, body: (await response.json()) as { message: string; code: string } };
    };
    const crowded = new FormData();
    crowded.append("roomId", supportRoomId(customer.id));
    for (let i = 0; i < 1000; i++) crowded.append(`extra${i}`, "x");
    crowded.append("file", new Blob([new Uint8Array(samples.png())]), "x.png");
    expect(await upload(crowded)).toMatchObject({ status: 413, body: { message: "The form has too many fields.", code: "PAYLOAD_TOO_LARGE" } });

    const withoutRoom = new FormData();
    withoutRoom.append("file", new Blob([new Uint8Array(samples.png())]), "x.png");
    expect(await upload(withoutRoom)).toMatchObject({ status: 400, body: { code: "INVALID_INPUT" } });
  });

  test("the owner's own id in capitals names the same conversation", async () => {
    const customer = await chatAccount("user");
    const userId = customer.id.toUpperCase();
    const request = new Request(`http://localhost/api/chat/conversation/${userId}`, { headers: bearer(customer.token) });
    const response = await conversation.loader({ request, params: { userId }, context: freshContext() });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "success", data: { messages: [] } });
  });
});
