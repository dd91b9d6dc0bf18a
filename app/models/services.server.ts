import { and, asc, eq, inArray } from "drizzle-orm";
import { sampleServices } from "~/components/landing/sample-services";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { isUuid } from "~/utils/ids";


export type Service = typeof schema.services.$inferSelect;

/** The JSON shape of contracts §3: money in dollars next to its currency. */
export interface ServiceJson {
  _id: string;
  name: string;
  price: number;
  currency: string;
  description: string | null;
}

export function centsToDollars(cents: number) {
  return Math.round(cents) / 100;
}

export function toServiceJson(service: Pick<Service, "id" | "name" | "priceCents" | "currency" | "description">): ServiceJson {
  return {
    _id: service.id,
    name: service.name,
    price: centsToDollars(service.priceCents),
    currency: service.currency,
    description: service.description,
  };
}

/*
 * The catalogue changes only with a deploy (seed or migration), yet the landing page and
 * GET /api/services read it on every request: each node keeps it for a few seconds. Tests read
 * through, since they change the catalogue between assertions.
 */
const CATALOGUE_TTL_MS = 5_000;
let catalogue: { at: number; rows: Promise<Service[]> } | undefined;

/** The a-la-carte catalogue: active services in display order. */
export function listActiveServices(): Promise<Service[]> {
  if (!env.isTest && catalogue && Date.now() - catalogue.at < CATALOGUE_TTL_MS) return catalogue.rows;
  // Promise.resolve runs the query once; a drizzle query re-runs on every await.
  const rows = Promise.resolve(
    db
      .select()
      .from(schema.services)
      .where(eq(schema.services.active, true))
      .orderBy(asc(schema.services.sortOrder), asc(schema.services.name)),
  );
  catalogue = { at: Date.now(), rows };
  rows.catch(() => (catalogue = undefined));
  return rows;
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

/*
 * The "Our Services" cards sell packages (Social Media Audit, Starter, $28.99 …) whose prices live
 * in code, not in the a-la-carte catalogue. A purchase must point at a services row, so each
 * package gets an inactive row of its own (slug `package-<service>-<package>`), created on first
 * order. Inactive keeps it out of the picker and out of `GET /api/services`; see decision 031.
 */

export function findPackage(key: string) {
  const [serviceId, packageName] = key.split(":");
  const service = sampleServices.find((s) => s.id === serviceId);
  const servicePackage = service?.packages.find((p) => p.name.toLowerCase() === packageName);
  if (!service || !servicePackage) return null;
  return {
    slug: `package-${service.id}-${servicePackage.name.toLowerCase()}`,
    name: `${service.title} (${servicePackage.name})`,
    description: `${servicePackage.desc} ${servicePackage.features.join(". ")}.`,
    priceCents: Math.round(Number(servicePackage.price) * 100),
  };
}

/** The services row behind a package, created once (a concurrent creator wins harmlessly). */
export async function ensurePackageService(key: string): Promise<Service | null> {
  const found = findPackage(key);
  if (!found) return null;
  await db
    .insert(schema.services)
    .values({ ...found, active: false, sortOrder: 1000 })
    .onConflictDoNothing({ target: schema.services.slug });
  const [row] = await db.select().from(schema.services).where(eq(schema.services.slug, found.slug));
  // The code is the price list: keep the row in step if a package price or text changed.
  if (row && (row.priceCents !== found.priceCents || row.name !== found.name)) {
    const [updated] = await db
      .update(schema.services)
      .set({ priceCents: found.priceCents, name: found.name, description: found.description })
      .where(eq(schema.services.id, row.id))
      .returning();
    return updated;
  }
  return row ?? null;
}
