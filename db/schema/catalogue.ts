import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/*
 * The catalogue beyond the a-la-carte `services` table (db/schema.ts): each service's "Our Services"
 * packages, the monthly plans, and the audit log of staff changes. Money is integer cents. The
 * ids of services and users are plain uuid columns (this file may not import ../schema, which
 * re-exports it); services and staff are never deleted, only deactivated or disabled.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/**
 * Three tiers per service (Starter, Growth, Premium). Tier 1 has no price of its own: it is the
 * service at its a-la-carte price, so one service shows one price everywhere (decision 075).
 */
export const servicePackages = pgTable(
  "service_packages",
  {
    id: id(),
    serviceId: uuid("service_id").notNull(),
    tier: integer("tier").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    priceCents: integer("price_cents"),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("service_packages_service_tier_key").on(t.serviceId, t.tier),
    check("service_packages_tier_check", sql`${t.tier} between 1 and 3`),
    check("service_packages_price_check", sql`(${t.tier} = 1) = (${t.priceCents} is null) and coalesce(${t.priceCents}, 1) > 0`),
  ],
);

/** The monthly plans (STARTER, PRO, VIP). A running subscription keeps the price it was bought at. */
export const plans = pgTable(
  "plans",
  {
    id: id(),
    key: text("key").notNull().unique(),
    name: text("name").notNull(),
    tagline: text("tagline").notNull().default(""),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    /** Posts the plan includes each month, for the content calendar's quota; null: none promised. */
    postsPerMonth: integer("posts_per_month"),
    sortOrder: integer("sort_order").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("plans_price_check", sql`${t.priceCents} > 0`)],
);

export type CatalogueEntity = "service" | "packages" | "plan";

/** Every change staff make in the catalogue editor: who, when, the record before and after. */
export const catalogueChanges = pgTable(
  "catalogue_changes",
  {
    id: id(),
    actorId: uuid("actor_id"),
    actorName: text("actor_name").notNull(),
    entity: text("entity").$type<CatalogueEntity>().notNull(),
    entityId: uuid("entity_id").notNull(),
    entityName: text("entity_name").notNull(),
    action: text("action").$type<"create" | "update">().notNull(),
    before: jsonb("before").$type<Record<string, unknown> | null>(),
    after: jsonb("after").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("catalogue_changes_created_idx").on(t.createdAt),
    check("catalogue_changes_entity_check", sql`${t.entity} in ('service', 'packages', 'plan')`),
    check("catalogue_changes_action_check", sql`${t.action} in ('create', 'update')`),
  ],
);
