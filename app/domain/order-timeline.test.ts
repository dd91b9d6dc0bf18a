import { describe, expect, test } from "vitest";

import { orderTimeline } from "./order-timeline";

const order = {
  name: "Ada Buyer",
  email: "ada@example.test",
  totalCents: 10_000,
  currency: "usd",
  createdAt: "2026-11-01T10:00:00.000Z",
  paidAt: "2026-11-01T10:05:00.000Z",
  updatedAt: "2026-11-03T09:00:00.000Z",
};

describe("an order's history", () => {
  test("two partial refunds, each with who and why, step the status to partially refunded then refunded", () => {
    const refund = (amountCents: number, at: string, reason: string) => ({
      amountCents,
      status: "succeeded",
      source: "dashboard",
      createdBy: "Sam Staff",
      reason,
      createdAt: at,
      failureMessage: null,
    });
    const timeline = orderTimeline({
      order: { ...order, status: "refunded" },
      refunds: [refund(4_000, "2026-11-02T09:00:00.000Z", "Late delivery"), refund(6_000, "2026-11-03T09:00:00.000Z", "Cancelled")],
      emails: [{ recipient: "ada@example.test", subject: "Your BrandLift order is confirmed", sentAt: "2026-11-01T10:05:01.000Z" }],
      work: [{ service: "Social Media Audit", completedAt: null }],
    });
    expect(timeline.map((e) => [e.title, e.actor])).toEqual([
      ["Order placed", "Ada Buyer (ada@example.test)"],
      ["Paid $100.00", "Ada Buyer (ada@example.test)"],
      ["E-mail sent: Your BrandLift order is confirmed", "BrandLift"],
      ["Refunded: $40.00", "Sam Staff"],
      ["Status: Partially refunded", "Sam Staff"],
      ["Refunded: $60.00", "Sam Staff"],
      ["Status: Refunded", "Sam Staff"],
    ]);
    expect(timeline[3].detail).toBe("Reason: Late delivery");
  });

  test("an unpaid checkout that expired, and a refund made in Stripe's dashboard that failed", () => {
    const timeline = orderTimeline({
      order: { ...order, paidAt: null, status: "cancelled" },
      refunds: [],
      emails: [],
      work: [],
    });
    expect(timeline.map((e) => e.title)).toEqual(["Order placed", "Status: Expired"]);
    const failed = orderTimeline({
      order: { ...order, status: "paid" },
      refunds: [
        {
          amountCents: 500,
          status: "failed",
          source: "stripe",
          createdBy: null,
          reason: null,
          createdAt: "2026-11-02T00:00:00.000Z",
          failureMessage: "Card expired",
        },
      ],
      emails: [],
      work: [],
    });
    expect(failed.at(-1)).toMatchObject({ title: "Refund failed: $5.00", detail: "Card expired", actor: "Stripe dashboard" });
  });
});
