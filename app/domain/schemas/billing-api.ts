import { briefStatusJson, reportJson, statusData, userJson } from "~/domain/schemas/api";
import { z } from "~/domain/zod";

/*
 * The JSON shapes of the billing and account routes (subscriptions, receipts, account), for the
 * OpenAPI document. Money in dollars, dates ISO strings.
 */

const isoDate = z.string().meta({ format: "date-time" });

export const subscriptionJson = z.object({
  _id: z.string(),
  id: z.string(),
  plan: z.object({ _id: z.string(), key: z.string(), name: z.string() }),
  price: z.number().meta({ description: "Monthly price in dollars." }),
  currency: z.string(),
  status: z.enum(["active", "past_due", "canceled", "incomplete"]),
  currentPeriodEnd: isoDate.nullable().meta({ description: "When the current period ends: the next renewal, or the end of a plan set to cancel." }),
  cancelAtPeriodEnd: z.boolean(),
  features: z.array(z.string()).meta({ description: "What the plan includes." }),
  createdAt: isoDate,
  brief: briefStatusJson,
});

export const receiptJson = z.object({
  _id: z.string(),
  id: z.string(),
  kind: z.enum(["order", "invoice"]),
  amount: z.number().meta({ description: "In dollars." }),
  refunded: z.number().meta({ description: "Refunded so far, in dollars." }),
  currency: z.string(),
  paidAt: isoDate,
  url: z.string().meta({ description: "Stripe's hosted invoice with a Stripe key; our printable receipt page otherwise." }),
  description: z.string(),
});

export const accountResponse = statusData(z.object({ user: userJson }));
export const accountPatchResponse = z.object({
  status: z.literal("success"),
  message: z.string().optional(),
  data: z.object({ user: userJson, pendingEmail: z.string().optional().meta({ description: "The address a confirmation link was sent to." }) }),
});
export const subscriptionsResponse = statusData(z.object({ subscriptions: z.array(subscriptionJson) }));
export const receiptsResponse = statusData(z.object({ receipts: z.array(receiptJson) }));
export const planReportResponse = z.object({ success: z.literal(true), data: reportJson.extend({ period: z.string(), subscriptionId: z.string() }) });
export const billingPortalResponse = statusData(z.object({ url: z.string().meta({ description: "Stripe's customer portal, or the test billing page." }) }));
