import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";

import type { ServiceOffer } from "~/domain/catalogue";
import { centsToDollars } from "~/domain/format";
import { isUuid, withWireId } from "~/domain/ids";
import type { serviceJson } from "~/domain/schemas/api";
import { db, schema } from "~/utils/db.server";

export type Service = typeof schema.services.$inferSelect;

/** The Service shape of the JSON API (docs/api.md), from its schema: money in dollars next to its currency. */
export type ServiceJson = z.infer<typeof serviceJson>;

export function toServiceJson(service: Pick<Service, "id" | "name" | "priceCents" | "currency" | "description">): ServiceJson {
  const { priceCents, ...offer } = toServiceOffer(service);
  return { ...withWireId(offer), price: centsToDollars(priceCents) };
}

/** A service as the screens take it (cents); toServiceJson is the public API's dollar shape. */
export function toServiceOffer(service: Pick<Service, "id" | "name" | "priceCents" | "currency" | "description">): ServiceOffer {
  return { id: service.id, name: service.name, priceCents: service.priceCents, currency: service.currency, description: service.description };
}

/** The a-la-carte catalogue: active services in display order (the landing page reads it through getStorefront()). */
export function listActiveServices(): Promise<Service[]> {
  return db.select().from(schema.services).where(eq(schema.services.active, true)).orderBy(asc(schema.services.sortOrder), asc(schema.services.name));
}

/** The active services among `ids` (unknown and inactive ids are simply absent). */
export function findActiveServices(ids: string[]): Promise<Service[]> {
  // A malformed id is just an unknown one: never let it reach the uuid column as a cast error.
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(schema.services)
    .where(and(inArray(schema.services.id, valid), eq(schema.services.active, true)));
}
