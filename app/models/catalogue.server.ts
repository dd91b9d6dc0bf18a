import { and, asc, desc, eq, like, notLike, sql } from "drizzle-orm";

import { joinSentences, packageLineName, parsePackageKey, slugify, type PackageView, type PlanView, type ShowcaseService } from "~/domain/catalogue";
import { centsToDollars, formatMoney } from "~/domain/format";
import { isUuid } from "~/domain/ids";
import type { catalogueServiceJson } from "~/domain/schemas/catalogue";
import type { z } from "~/domain/zod";
import { db, schema, seedCatalogue, type Tx } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { isUniqueViolation } from "~/utils/sql.server";

import { recordAudit } from "./audit.server";
import { toServiceJson, type Service } from "./services.server";

/*
 * The catalogue: a-la-carte services, their "Our Services" packages and the monthly plans, all in
 * the database (seeded from db/seed.ts) and edited by staff in /dashboard/catalogue. The landing
 * page and GET /api/services, /api/plans read one snapshot that each node keeps for a few seconds;
 * checkout always reads the rows themselves, so the next order pays the price of the moment and
 * past orders keep the price stored on them (decision 075).
 */

export type PlanRecord = typeof schema.plans.$inferSelect;
export type PackageRecord = typeof schema.servicePackages.$inferSelect;
export type CatalogueChange = typeof schema.catalogueChanges.$inferSelect;
/** The staff member a catalogue change is logged under. */
export interface CatalogueEditor {
  id: string;
  name: string;
}

/** Services staff see: not the hidden rows that purchases of packages and plans point at. */
const listed = and(notLike(schema.services.slug, "package-%"), notLike(schema.services.slug, "plan-%"));

/** Adds what the seed has and the database lacks (boot and tests); true when anything was added. */
export function ensureCatalogue(): Promise<boolean> {
  return seedCatalogue(db);
}

// ---------------------------------------------------------------------------------------------
// The storefront snapshot
// ---------------------------------------------------------------------------------------------

export interface Storefront {
  /** Active services in display order (the a-la-carte picker, GET /api/services). */
  services: Service[];
  /** Active services that have their three packages (the "Our Services" cards). */
  showcase: ShowcaseService[];
  plans: PlanView[];
}

const STOREFRONT_TTL_MS = 5_000;
let snapshot: { at: number; value: Promise<Storefront> } | undefined;

/** What the landing page shows, kept per node for 5 s (tests read through); a change here drops it at once. */
export function getStorefront(): Promise<Storefront> {
  if (!env.isTest && snapshot && Date.now() - snapshot.at < STOREFRONT_TTL_MS) return snapshot.value;
  const value = readStorefront();
  snapshot = { at: Date.now(), value };
  value.catch(() => (snapshot = undefined));
  return value;
}

function forgetStorefront() {
  snapshot = undefined;
}

async function readStorefront(): Promise<Storefront> {
  const [services, tiers, plans] = await Promise.all([
    db
      .select()
      .from(schema.services)
      .where(and(eq(schema.services.active, true), listed))
      .orderBy(asc(schema.services.sortOrder), asc(schema.services.name)),
    db.select().from(schema.servicePackages).orderBy(asc(schema.servicePackages.tier)),
    db.select().from(schema.plans).orderBy(asc(schema.plans.sortOrder), asc(schema.plans.name)),
  ]);
  const tiersOf = groupBy(tiers, (tier) => tier.serviceId);
  const showcase = services.flatMap((service) => {
    const packages = tiersOf.get(service.id) ?? [];
    return packages.length === 3 ? [toShowcase(service, packages)] : [];
  });
  return { services, showcase, plans: plans.map(toPlanView) };
}

function toShowcase(service: Service, tiers: PackageRecord[]): ShowcaseService {
  return {
    id: service.id,
    slug: service.slug,
    name: service.name,
    description: service.description ?? "",
    packages: tiers.map((tier) => toPackageView(service, tier)),
  };
}

function toPackageView(service: Pick<Service, "priceCents">, tier: PackageRecord): PackageView {
  return { tier: tier.tier, name: tier.name, description: tier.description, priceCents: tier.priceCents ?? service.priceCents, features: tier.features };
}

export function toPlanView(plan: PlanRecord): PlanView {
  return { id: plan.id, key: plan.key, name: plan.name, tagline: plan.tagline, priceCents: plan.priceCents, currency: plan.currency, features: plan.features };
}

// ---------------------------------------------------------------------------------------------
// Checkout reads (never cached)
// ---------------------------------------------------------------------------------------------

/** A plan by its key ("starter"), as it is priced right now. */
export async function findPlan(key: string): Promise<PlanRecord | null> {
  const [plan] = await db.select().from(schema.plans).where(eq(schema.plans.key, key)).limit(1);
  return plan ?? null;
}

export function listPlans(): Promise<PlanRecord[]> {
  return selectPlans();
}

/** The plans in the catalogue's order, as a select not yet run (a page reads it with others: readTogether). */
export function selectPlans() {
  return db.select().from(schema.plans).orderBy(asc(schema.plans.sortOrder), asc(schema.plans.name));
}

/** The package behind `<service slug>:<tier>`, of an active service, priced right now. */
export async function findOrderablePackage(key: string) {
  const parsed = parsePackageKey(key);
  if (!parsed) return null;
  const [row] = await db
    .select({ service: schema.services, tier: schema.servicePackages })
    .from(schema.servicePackages)
    .innerJoin(schema.services, eq(schema.services.id, schema.servicePackages.serviceId))
    .where(and(eq(schema.services.slug, parsed.serviceSlug), eq(schema.services.active, true), listed, eq(schema.servicePackages.tier, parsed.tier)))
    .limit(1);
  if (!row) return null;
  return {
    slug: `package-${row.service.slug}-${row.tier.tier}`,
    name: packageLineName(row.service, row.tier),
    description: joinSentences([row.tier.description, ...row.tier.features]),
    priceCents: row.tier.priceCents ?? row.service.priceCents,
    currency: row.service.currency,
  };
}

/**
 * A purchase points at a services row, so each package has an inactive row of its own (slug
 * `package-<service>-<tier>`, decision 031), created on its first order and brought to the
 * package's current name and price on every order. Null for an unknown package or a service
 * that is no longer offered.
 */
export async function ensurePackageService(key: string): Promise<Service | null> {
  const found = await findOrderablePackage(key);
  if (!found) return null;
  const [row] = await db
    .insert(schema.services)
    .values({ ...found, active: false, sortOrder: 1000 })
    .onConflictDoUpdate({
      target: schema.services.slug,
      set: { name: found.name, description: found.description, priceCents: found.priceCents, currency: found.currency },
    })
    .returning();
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// The editor
// ---------------------------------------------------------------------------------------------

export interface LastChange {
  at: Date;
  by: string;
}

export interface EditorService extends Service {
  packages: PackageRecord[];
  lastChange: LastChange | null;
}

export interface EditorPlan extends PlanRecord {
  lastChange: LastChange | null;
}

export interface CatalogueEditorData {
  services: EditorService[];
  plans: EditorPlan[];
  changes: CatalogueChange[];
}

/** The editor's tables: every listed service with its packages, the plans, each with its latest change, and the latest changes. */
export async function readCatalogueForEditor(changesLimit = 10): Promise<CatalogueEditorData> {
  const [services, tiers, plans, changes, latest] = await Promise.all([
    db.select().from(schema.services).where(listed).orderBy(asc(schema.services.sortOrder), asc(schema.services.name)),
    db.select().from(schema.servicePackages).orderBy(asc(schema.servicePackages.tier)),
    listPlans(),
    listCatalogueChanges(changesLimit),
    lastChanges(),
  ]);
  const tiersOf = groupBy(tiers, (tier) => tier.serviceId);
  return {
    services: services.map((service) => ({ ...service, packages: tiersOf.get(service.id) ?? [], lastChange: latest.get(service.id) ?? null })),
    plans: plans.map((plan) => ({ ...plan, lastChange: latest.get(plan.id) ?? null })),
    changes,
  };
}

/** One listed service with its packages and its own changes (the service and its packages), newest first; null when there is none. */
export async function readServiceForEditor(id: string, changesLimit = 20): Promise<(EditorService & { changes: CatalogueChange[] }) | null> {
  if (!isUuid(id)) return null;
  const [service] = await db
    .select()
    .from(schema.services)
    .where(and(eq(schema.services.id, id), listed))
    .limit(1);
  if (!service) return null;
  const [packages, changes] = await Promise.all([
    db.select().from(schema.servicePackages).where(eq(schema.servicePackages.serviceId, id)).orderBy(asc(schema.servicePackages.tier)),
    listCatalogueChanges(changesLimit, id),
  ]);
  const [last] = changes;
  return { ...service, packages, lastChange: last ? { at: last.createdAt, by: last.actorName } : null, changes };
}

/** One plan and its changes, newest first; null when there is none. */
export async function readPlanForEditor(id: string, changesLimit = 20): Promise<(PlanRecord & { changes: CatalogueChange[] }) | null> {
  if (!isUuid(id)) return null;
  const [plan] = await db.select().from(schema.plans).where(eq(schema.plans.id, id)).limit(1);
  if (!plan) return null;
  return { ...plan, changes: await listCatalogueChanges(changesLimit, id) };
}

/** The latest change of each service (its packages included) and plan, by its id. */
async function lastChanges(): Promise<Map<string, LastChange>> {
  const c = schema.catalogueChanges;
  const rows = await db
    .selectDistinctOn([c.entityId], { entityId: c.entityId, at: c.createdAt, storedName: c.actorName, currentName: schema.users.name })
    .from(c)
    .leftJoin(schema.users, eq(schema.users.id, c.actorId))
    .orderBy(c.entityId, desc(c.createdAt), desc(c.id));
  return new Map(rows.map((row) => [row.entityId, { at: row.at, by: row.currentName ?? row.storedName }]));
}

/**
 * The latest changes (of one service or plan when `entityId` is given), each with the actor's
 * current name (a renamed account shows its new name); the name stored with the change stands in
 * once the account is gone.
 */
export async function listCatalogueChanges(limit = 50, entityId?: string): Promise<CatalogueChange[]> {
  const c = schema.catalogueChanges;
  const rows = await db
    .select({ change: c, currentName: schema.users.name })
    .from(c)
    .leftJoin(schema.users, eq(schema.users.id, c.actorId))
    .where(entityId ? eq(c.entityId, entityId) : undefined)
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(limit);
  return rows.map(({ change, currentName }) => ({ ...change, actorName: currentName ?? change.actorName }));
}

/** A refusal tied to one form field (the editor shows it under that field; the API as its message). */
export class CatalogueFieldError extends HttpError {
  constructor(
    status: number,
    message: string,
    code: string,
    public field: string,
  ) {
    super(status, message, code);
  }
}

export const NAME_TAKEN_MESSAGE = "A service with this name already exists.";
const SERVICE_NOT_FOUND = "Service not found.";

export interface ServiceInput {
  name: string;
  description?: string | null;
  priceCents: number;
  active?: boolean;
  sortOrder?: number;
}

export async function createService(actor: CatalogueEditor, input: ServiceInput): Promise<Service> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeCatalogue(async (tx) => {
        await assertNameFree(tx, input.name);
        const slug = await freeSlug(tx, input.name);
        const sortOrder = input.sortOrder ?? (await nextSortOrder(tx));
        const [created] = await tx
          .insert(schema.services)
          .values({ slug, name: input.name, description: input.description || null, priceCents: input.priceCents, active: input.active ?? true, sortOrder })
          .returning();
        await logChange(tx, actor, {
          entity: "service",
          entityId: created.id,
          entityName: created.name,
          action: "create",
          before: null,
          after: serviceSnapshot(created),
        });
        return created;
      });
    } catch (error) {
      // Someone took the slug meanwhile: look again (a taken name then answers 409).
      if (attempt < 3 && isUniqueViolation(error, "services_slug_unique")) continue;
      throw error;
    }
  }
}

export async function updateService(actor: CatalogueEditor, id: string, patch: Partial<ServiceInput>): Promise<Service> {
  return writeCatalogue(async (tx) => {
    const before = await lockService(tx, id);
    if (patch.name !== undefined && patch.name.toLowerCase() !== before.name.toLowerCase()) await assertNameFree(tx, patch.name, id);
    const changes = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description || null } : {}),
      ...(patch.priceCents !== undefined ? { priceCents: patch.priceCents } : {}),
      ...(patch.active !== undefined ? { active: patch.active } : {}),
      ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}),
    };
    const [after] = Object.keys(changes).length > 0 ? await tx.update(schema.services).set(changes).where(eq(schema.services.id, id)).returning() : [before];
    await logChange(tx, actor, {
      entity: "service",
      entityId: id,
      entityName: after.name,
      action: "update",
      before: serviceSnapshot(before),
      after: serviceSnapshot(after),
    });
    return after;
  });
}

/**
 * Moves a service one place up or down the listed order (the landing page's order): it trades
 * display orders with its neighbour. When the two share a number, the listed services are
 * numbered 0, 1, 2… in the new order instead. Each service whose number changes gets a
 * change-log entry. At the top (or bottom) already: nothing changes.
 */
export async function moveService(actor: CatalogueEditor, id: string, direction: "up" | "down"): Promise<Service> {
  return writeCatalogue(async (tx) => {
    const moved = await lockService(tx, id);
    const ordered = await tx.select().from(schema.services).where(listed).orderBy(asc(schema.services.sortOrder), asc(schema.services.name)).for("update");
    const from = ordered.findIndex((service) => service.id === moved.id);
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= ordered.length) return moved;
    const neighbour = ordered[to]!;
    const target = new Map<string, number>();
    if (neighbour.sortOrder !== moved.sortOrder) {
      target.set(moved.id, neighbour.sortOrder).set(neighbour.id, moved.sortOrder);
    } else {
      [ordered[from], ordered[to]] = [neighbour, ordered[from]!];
      ordered.forEach((service, index) => target.set(service.id, index));
    }
    let result = moved;
    for (const before of ordered) {
      const sortOrder = target.get(before.id);
      if (sortOrder === undefined || sortOrder === before.sortOrder) continue;
      const [after] = await tx.update(schema.services).set({ sortOrder }).where(eq(schema.services.id, before.id)).returning();
      await logChange(tx, actor, {
        entity: "service",
        entityId: before.id,
        entityName: after.name,
        action: "update",
        before: serviceSnapshot(before),
        after: serviceSnapshot(after),
      });
      if (after.id === moved.id) result = after;
    }
    return result;
  });
}

export interface TierInput {
  name: string;
  description: string;
  /** Ignored for tier 1, which is the service at its own price. */
  priceCents?: number | null;
  features: string[];
}

/** A service's three packages, written together (created the first time). */
export async function savePackages(actor: CatalogueEditor, serviceId: string, tiers: TierInput[]): Promise<PackageRecord[]> {
  if (tiers.length !== 3) throw new HttpError(400, "A service has exactly three packages.", "INVALID_INPUT");
  return writeCatalogue(async (tx) => {
    const service = await lockService(tx, serviceId);
    const before = await tx
      .select()
      .from(schema.servicePackages)
      .where(eq(schema.servicePackages.serviceId, serviceId))
      .orderBy(asc(schema.servicePackages.tier));
    const rows = tiers.map((tier, index) => ({
      serviceId,
      tier: index + 1,
      name: tier.name,
      description: tier.description,
      priceCents: index === 0 ? null : (tier.priceCents ?? null),
      features: tier.features,
      updatedAt: new Date(),
    }));
    if (rows.some((row) => row.tier > 1 && row.priceCents === null)) throw new CatalogueFieldError(400, "Price is required", "INVALID_INPUT", "price");
    const after = await tx
      .insert(schema.servicePackages)
      .values(rows)
      .onConflictDoUpdate({
        target: [schema.servicePackages.serviceId, schema.servicePackages.tier],
        set: {
          name: sql`excluded.name`,
          description: sql`excluded.description`,
          priceCents: sql`excluded.price_cents`,
          features: sql`excluded.features`,
          updatedAt: sql`excluded.updated_at`,
        },
      })
      .returning();
    after.sort((a, b) => a.tier - b.tier);
    await logChange(tx, actor, {
      entity: "packages",
      entityId: serviceId,
      entityName: service.name,
      action: before.length === 0 ? "create" : "update",
      before: before.length === 0 ? null : packagesSnapshot(before),
      after: packagesSnapshot(after),
    });
    return after;
  });
}

export interface PlanInput {
  priceCents?: number;
  features?: string[];
}

/** A plan's price and features: the next sign-up pays the new price, running subscriptions keep theirs. */
export async function updatePlan(actor: CatalogueEditor, id: string, patch: PlanInput): Promise<PlanRecord> {
  if (!isUuid(id)) throw new HttpError(404, "Plan not found.");
  return writeCatalogue(async (tx) => {
    const [before] = await tx.select().from(schema.plans).where(eq(schema.plans.id, id)).for("update");
    if (!before) throw new HttpError(404, "Plan not found.");
    const [after] = await tx
      .update(schema.plans)
      .set({
        ...(patch.priceCents !== undefined ? { priceCents: patch.priceCents } : {}),
        ...(patch.features ? { features: patch.features } : {}),
        updatedAt: new Date(),
      })
      .where(eq(schema.plans.id, id))
      .returning();
    await logChange(tx, actor, {
      entity: "plan",
      entityId: id,
      entityName: after.name,
      action: "update",
      before: planSnapshot(before),
      after: planSnapshot(after),
    });
    return after;
  });
}

// ---------------------------------------------------------------------------------------------

async function writeCatalogue<T>(write: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(write);
  } catch (error) {
    // Two editors saving the same new name at once: the unique index decides.
    if (isUniqueViolation(error, "services_name_unique_idx")) throw new CatalogueFieldError(409, NAME_TAKEN_MESSAGE, "NAME_TAKEN", "name");
    throw error;
  } finally {
    forgetStorefront();
  }
}

async function lockService(tx: Tx, id: string): Promise<Service> {
  if (!isUuid(id)) throw new HttpError(404, SERVICE_NOT_FOUND);
  const [service] = await tx
    .select()
    .from(schema.services)
    .where(and(eq(schema.services.id, id), listed))
    .for("update");
  if (!service) throw new HttpError(404, SERVICE_NOT_FOUND);
  return service;
}

async function assertNameFree(tx: Tx, name: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: schema.services.id })
    .from(schema.services)
    .where(and(sql`lower(${schema.services.name}) = lower(${name})`, listed))
    .limit(2);
  if (taken && taken.id !== exceptId) throw new CatalogueFieldError(409, NAME_TAKEN_MESSAGE, "NAME_TAKEN", "name");
}

/** A slug of the name that no service has; never `package-…` or `plan-…`, which name hidden rows. */
async function freeSlug(tx: Tx, name: string): Promise<string> {
  let base = slugify(name);
  if (/^(package|plan)-/.test(base)) base = `service-${base}`;
  const taken = new Set(
    (
      await tx
        .select({ slug: schema.services.slug })
        .from(schema.services)
        .where(like(schema.services.slug, `${base}%`))
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function nextSortOrder(tx: Tx): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number | null>`max(${schema.services.sortOrder})` })
    .from(schema.services)
    .where(listed);
  return (row?.max ?? -1) + 1;
}

async function logChange(tx: Tx, actor: CatalogueEditor, change: Omit<typeof schema.catalogueChanges.$inferInsert, "actorId" | "actorName">) {
  await tx.insert(schema.catalogueChanges).values({ ...change, actorId: actor.id, actorName: actor.name });
  // The same change in the audit log (decision 220), in the same transaction.
  const before = (change.before ?? null) as Snapshot | null;
  const after = (change.after ?? {}) as Snapshot;
  await recordAudit(
    {
      actor,
      action:
        change.entity === "plan"
          ? "plan.update"
          : change.entity === "packages"
            ? "service.packages"
            : change.action === "create"
              ? "service.create"
              : "service.update",
      target: { kind: change.entity === "plan" ? "plan" : "service", id: change.entityId, label: change.entityName },
      detail: describeChange(before, after),
    },
    tx,
  );
}

type Snapshot = Record<string, unknown>;

/** What a catalogue change changed, in one line: "price $100.00 → $120.00; hidden". */
function describeChange(before: Snapshot | null, after: Snapshot): string {
  const money = (cents: unknown) => (typeof cents === "number" ? formatMoney(centsToDollars(cents)) : "none");
  if (Array.isArray(after.tiers)) {
    const tiers = after.tiers as { tier: number; name: string; priceCents: number | null }[];
    return `Packages: ${tiers.map((tier) => `${tier.name} ${tier.priceCents === null ? "(service price)" : money(tier.priceCents)}`).join(", ")}`;
  }
  if (!before) return `Created at ${money(after.priceCents)}${after.active === false ? ", hidden" : ""}`;
  const parts: string[] = [];
  if (before.name !== after.name) parts.push(`name “${String(before.name)}” → “${String(after.name)}”`);
  if (before.priceCents !== after.priceCents) parts.push(`price ${money(before.priceCents)} → ${money(after.priceCents)}`);
  if (before.active !== after.active) parts.push(after.active ? "shown in the catalogue" : "hidden from the catalogue");
  if (before.description !== after.description) parts.push("description changed");
  if (JSON.stringify(before.features) !== JSON.stringify(after.features)) parts.push("features changed");
  if (before.sortOrder !== after.sortOrder) parts.push(`display order ${String(before.sortOrder)} → ${String(after.sortOrder)}`);
  return parts.length > 0 ? parts.join("; ") : "Saved without changes";
}

function serviceSnapshot(service: Service) {
  return { name: service.name, description: service.description, priceCents: service.priceCents, active: service.active, sortOrder: service.sortOrder };
}

function packagesSnapshot(tiers: PackageRecord[]) {
  return {
    tiers: tiers.map((tier) => ({ tier: tier.tier, name: tier.name, description: tier.description, priceCents: tier.priceCents, features: tier.features })),
  };
}

function planSnapshot(plan: PlanRecord) {
  return { name: plan.name, priceCents: plan.priceCents, features: plan.features };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

// ---------------------------------------------------------------------------------------------
// JSON shapes of the API (money in dollars)
// ---------------------------------------------------------------------------------------------

/** A service as staff see it: the public Service (toServiceJson) and whether it is offered and where it stands. */
export function toCatalogueServiceJson(service: Service): z.infer<typeof catalogueServiceJson> {
  return { ...toServiceJson(service), active: service.active, displayOrder: service.sortOrder };
}

export function toPlanJson(plan: PlanView) {
  return {
    _id: plan.id,
    key: plan.key,
    name: plan.name,
    price: centsToDollars(plan.priceCents),
    currency: plan.currency,
    interval: "month" as const,
    features: plan.features,
  };
}
