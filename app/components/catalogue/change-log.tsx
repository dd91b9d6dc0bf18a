import { formatCents } from "~/domain/format";

/** One catalogue change as the loader sends it: who, when, what, and the record before and after. */
export interface ChangeLogEntry {
  id: string;
  actorName: string;
  entity: "service" | "packages" | "plan";
  entityName: string;
  action: "create" | "update";
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  createdAt: string;
}

const LABELS: Record<string, string> = {
  name: "Name",
  description: "Description",
  priceCents: "Price",
  active: "Active",
  sortOrder: "Display order",
  features: "Features",
};

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function show(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (key === "priceCents" && typeof value === "number") return formatCents(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.join("; ");
  return String(value);
}

/** The fields that differ, flattened ("Growth: Price"), each with its value before and after. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown>) {
  const flat = (record: Record<string, unknown> | null) => {
    const out = new Map<string, string>();
    if (!record) return out;
    const tiers = record.tiers;
    if (Array.isArray(tiers)) {
      for (const tier of tiers as Record<string, unknown>[]) {
        for (const [key, value] of Object.entries(tier)) {
          if (key !== "tier")
            out.set(
              `Tier ${String(tier.tier)} ${(LABELS[key] ?? key).toLowerCase()}`,
              key === "priceCents" && value === null ? "service price" : show(key, value),
            );
        }
      }
      return out;
    }
    for (const [key, value] of Object.entries(record)) out.set(LABELS[key] ?? key, show(key, value));
    return out;
  };
  const was = flat(before);
  const now = flat(after);
  return [...now.entries()]
    .filter(([field, value]) => was.get(field) !== value)
    .map(([field, value]) => ({ field, before: before ? (was.get(field) ?? "—") : null, after: value }));
}

const WHAT: Record<ChangeLogEntry["entity"], string> = { service: "Service", packages: "Packages", plan: "Plan" };

export function ChangeLog({ changes }: { changes: ChangeLogEntry[] }) {
  if (changes.length === 0) return <p className="text-sm text-slate-600">No changes yet.</p>;
  return (
    // A phone scrolls the table sideways: the scroll box takes keyboard focus (arrow keys), and `relative` keeps the caption inside it.
    <div
      role="region"
      aria-label="Catalogue changes"
      tabIndex={0}
      className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Catalogue changes, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              When (UTC)
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Who
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              What
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Before
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              After
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {changes.map((change) => {
            const fields = changedFields(change.before, change.after);
            return (
              <tr key={change.id}>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  <time dateTime={change.createdAt}>{dateTime.format(new Date(change.createdAt))}</time>
                </td>
                <td className="px-4 py-3 text-slate-900">{change.actorName}</td>
                <td className="px-4 py-3 text-slate-900">
                  {WHAT[change.entity]} {change.action === "create" ? "added" : "changed"}: <strong>{change.entityName}</strong>
                </td>
                <td className="px-4 py-3 text-slate-700">
                  {change.action === "create" ? "—" : <FieldList items={fields.map((f) => [f.field, f.before ?? "—"])} />}
                </td>
                <td className="px-4 py-3 text-slate-900">
                  <FieldList items={fields.map((f) => [f.field, f.after])} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function FieldList({ items }: { items: [string, string][] }) {
  if (items.length === 0) return <span className="text-slate-500">no change</span>;
  return (
    <dl className="space-y-1">
      {items.map(([field, value]) => (
        <div key={field}>
          <dt className="inline font-semibold">{field}: </dt>
          <dd className="inline break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
