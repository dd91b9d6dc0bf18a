import { CONTACT_INTENT, ORDER_INTENT, PLAN_INTENT } from "~/domain/order-intents";
import { line, text, z } from "~/domain/zod";

/*
 * One schema per form, used by the landing action on the server (which adds the checks that need
 * the database: active services, prices). The JSON API's body schema shares the field rules. The
 * landing page itself does not ship zod (decision 034): the order modal mirrors these rules with
 * the browser's own constraint validation and the same messages.
 */

export const nameField = line(
  z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(120, "Name must be at most 120 characters"),
  "Name",
);

export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Invalid email address")
  // A check on the string itself (not a pipe), so the OpenAPI document says `format: email` too.
  .email("Invalid email address");

const orderFormSchema = z
  .object({
    intent: z.literal(ORDER_INTENT),
    name: nameField,
    email: emailField,
    services: z.array(z.string().max(64)).max(50).default([]),
    packages: z.array(z.string().max(64)).max(10).default([]),
  })
  .refine((value) => value.services.length + value.packages.length > 0, {
    message: "Please select at least one service.",
    path: ["services"],
  });

const planFormSchema = z.object({
  intent: z.literal(PLAN_INTENT),
  name: nameField,
  email: emailField,
  planId: z.string({ error: "Please choose one of our plans." }).max(32),
});

export const CONTACT_MESSAGE_REQUIRED = "Please write your message.";

export const contactFormSchema = z.object({
  intent: z.literal(CONTACT_INTENT),
  firstName: line(z.string().trim().max(100, "First name must be at most 100 characters"), "First name").optional(),
  lastName: line(z.string().trim().max(100, "Last name must be at most 100 characters"), "Last name").optional(),
  email: emailField,
  // A message is what the form is for: an empty one is refused (decision 265).
  message: text(
    z.string({ error: CONTACT_MESSAGE_REQUIRED }).trim().min(1, CONTACT_MESSAGE_REQUIRED).max(5000, "Message must be at most 5,000 characters"),
    "Message",
  ),
  website: z.string().optional(),
});

/** The landing page's three forms (an order, a plan, the contact form), parsed once by its action. */
export const landingFormSchema = z.discriminatedUnion("intent", [orderFormSchema, planFormSchema, contactFormSchema], { error: "Unknown action." });

/** The JSON API's order body (docs/api.md): lines are one_time and quantity 1; extra keys such as a price are dropped. */
export const purchaseBodySchema = z.object({
  name: nameField,
  email: emailField,
  services: z
    .array(
      z.object({
        serviceId: z.string({ error: "serviceId is required" }).max(64),
        pricingType: z.literal("one_time", { error: 'pricingType must be "one_time".' }),
        quantity: z.literal(1, { error: "quantity must be 1." }),
      }),
      { error: "services must be a list of services." },
    )
    .min(1, "Please select at least one service.")
    .max(50, "At most 50 services per order."),
});
