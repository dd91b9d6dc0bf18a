import { MAX_NAME_LENGTH, MAX_PRICE_CENTS } from "~/domain/catalogue";
import { serviceJson } from "~/domain/schemas/api";
import { line, text, z } from "~/domain/zod";

/*
 * The catalogue editor's rules, one set for the forms of /dashboard/catalogue (conform) and for
 * POST /api/services and PATCH /api/services/:id. Prices are typed in dollars and stored in cents.
 */

export const PRICE_MESSAGES = {
  required: "Price is required",
  format: "Enter a price in dollars, e.g. 28.99",
  positive: "Price must be more than $0",
  max: "Price must be at most $100,000",
};

/** Dollars as the editor or the API sends them ("28.99" or 28.99) -> integer cents, or the field's message. */
export const priceField = z.union([z.number(), z.string()], { error: PRICE_MESSAGES.required }).transform((value, ctx) => {
  const raw = typeof value === "number" ? value : value.trim().replace(/^\$/, "").replace(/,/g, "");
  if (raw === "") {
    ctx.addIssue({ code: "custom", message: PRICE_MESSAGES.required });
    return z.NEVER;
  }
  const dollars = typeof raw === "number" ? raw : /^\d+(\.\d{1,2})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(dollars) || Math.abs(Math.round(dollars * 100) - dollars * 100) > 1e-6) {
    ctx.addIssue({ code: "custom", message: PRICE_MESSAGES.format });
    return z.NEVER;
  }
  const cents = Math.round(dollars * 100);
  if (cents <= 0) ctx.addIssue({ code: "custom", message: PRICE_MESSAGES.positive });
  else if (cents > MAX_PRICE_CENTS) ctx.addIssue({ code: "custom", message: PRICE_MESSAGES.max });
  return cents;
});

export const serviceNameField = line(
  z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`),
  "Name",
);

export const descriptionField = text(z.string().trim().max(2000, "Description must be at most 2,000 characters"), "Description");

export const displayOrderField = z.coerce
  .number({ error: "Display order must be a whole number" })
  .int("Display order must be a whole number")
  .min(0, "Display order must be 0 or more")
  .max(10_000, "Display order must be at most 10,000");

/** One feature per line of a textarea (or an array from the API): 1 to 12, each up to 200 characters. */
export const featuresField = z
  .union([z.string(), z.array(z.string())], { error: "Add at least one feature" })
  .transform((value) => (Array.isArray(value) ? value : value.split(/\r?\n/)).map((feature) => feature.trim()).filter(Boolean))
  .pipe(
    z
      .array(text(z.string().max(200, "Each feature must be at most 200 characters"), "Features"))
      .min(1, "Add at least one feature")
      .max(12, "At most 12 features"),
  );

// --- forms of /dashboard/catalogue (checkboxes are "on" or absent) ---------------------------

export const SERVICE_INTENTS = {
  create: "create-service",
  update: "update-service",
  packages: "save-packages",
  plan: "update-plan",
  move: "move-service",
} as const;
export type CatalogueIntent = (typeof SERVICE_INTENTS)[keyof typeof SERVICE_INTENTS];

export const serviceFormSchema = z.object({
  intent: z.enum([SERVICE_INTENTS.create, SERVICE_INTENTS.update]),
  id: z.string().max(64).optional(),
  name: serviceNameField,
  description: descriptionField.optional(),
  price: priceField,
  active: z.literal("on").optional(),
  displayOrder: displayOrderField.optional(),
});

const tierSchema = z.object({
  name: line(
    z.string({ error: "Package name is required" }).trim().min(1, "Package name is required").max(60, "Package name must be at most 60 characters"),
    "Package name",
  ),
  description: text(z.string().trim().max(300, "Description must be at most 300 characters"), "Description").default(""),
  price: priceField.optional(),
  features: featuresField,
});

export const packagesFormSchema = z.object({
  intent: z.literal(SERVICE_INTENTS.packages),
  serviceId: z.string().max(64),
  tiers: z
    .array(tierSchema)
    .length(3, "A service has exactly three packages")
    .superRefine((tiers, ctx) => {
      tiers.forEach((tier, index) => {
        if (index > 0 && tier.price === undefined) ctx.addIssue({ code: "custom", message: PRICE_MESSAGES.required, path: [index, "price"] });
      });
    }),
});

export const planFormSchema = z.object({
  intent: z.literal(SERVICE_INTENTS.plan),
  id: z.string().max(64),
  price: priceField,
  features: featuresField,
});

/** The up and down buttons of the services table. */
export const moveFormSchema = z.object({
  intent: z.literal(SERVICE_INTENTS.move),
  id: z.string().max(64),
  direction: z.enum(["up", "down"], { error: "Choose up or down" }),
});

// --- the JSON API ------------------------------------------------------------------------------

export const serviceCreateBody = z.object({
  name: serviceNameField,
  description: descriptionField.nullish(),
  price: priceField.meta({ description: "In dollars, e.g. 28.99; more than 0 and at most 100000." }),
  active: z.boolean({ error: "active must be true or false" }).optional(),
  displayOrder: z.number().int().min(0).max(10_000).optional(),
});

export const servicePatchBody = serviceCreateBody.partial();

/** A service as staff see it: the public Service plus whether it is offered and where it stands. */
export const catalogueServiceJson = serviceJson.extend({
  active: z.boolean(),
  displayOrder: z.number().int(),
});

export const planJson = z.object({
  _id: z.string().meta({ format: "uuid" }),
  key: z.string(),
  name: z.string(),
  price: z.number().meta({ description: "Per month, in dollars." }),
  currency: z.string(),
  interval: z.literal("month"),
  features: z.array(z.string()),
});
