import { Column, getTableColumns, getTableName, is, sql, SQL, Table, type SQLWrapper } from "drizzle-orm";
import type { PgSelectConfig } from "drizzle-orm/pg-core";

import { queryRows } from "./db-cursor.server";

/*
 * Several independent reads of one page in one statement (docs/decisions/329): each read is a
 * drizzle select as its model builds it, run as a subquery whose rows come back as one JSON array
 * of arrays, then decoded by the read's own columns, as drizzle decodes the rows of the select run
 * alone. A page pays one round trip for them, not one each.
 */

/** A drizzle select, not yet run: its SQL, its columns and the rows it answers. */
type Read = SQLWrapper & { readonly _: { readonly config: PgSelectConfig; readonly result: unknown } };

type Field = Column | SQL | SQL.Aliased;
type Leaf = { path: string[]; field: Field };

/** The select's columns in the order drizzle writes them, each with where it goes in a row. */
function leavesOf(fields: Record<string, unknown>, path: string[] = []): Leaf[] {
  return Object.entries(fields).flatMap(([name, field]): Leaf[] => {
    const at = [...path, name];
    if (is(field, Column) || is(field, SQL) || is(field, SQL.Aliased)) return [{ path: at, field }];
    if (is(field, Table)) return leavesOf(getTableColumns(field), at);
    return leavesOf(field as Record<string, unknown>, at);
  });
}

/** What `sql\`…\`.mapWith()` gave an expression (by default, the value as the driver answered it). */
const decoderOf = (expression: SQL) => (expression as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } }).decoder;

/** One row as drizzle answers it: each value through its column's decoder; a left-joined table without a row is null. */
function decode(leaves: Leaf[], values: unknown[], notNullable: Record<string, boolean>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  /** Per nested object: the table of its first column when that is null, else false. */
  const empty = new Map<string, string | false>();
  leaves.forEach(({ path, field }, index) => {
    let node = row;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    const raw = values[index];
    const decoder = is(field, Column) ? field : decoderOf(is(field, SQL) ? field : field.sql);
    const value = raw === null ? null : decoder.mapFromDriverValue(raw);
    node[path[path.length - 1]] = value;
    // As drizzle judges it: the object's first column decides, unless its columns come from two tables.
    if (is(field, Column) && path.length === 2) {
      const table = getTableName(field.table);
      const seen = empty.get(path[0]);
      if (seen === undefined) empty.set(path[0], value === null ? table : false);
      else if (seen !== false && seen !== table) empty.set(path[0], false);
    }
  });
  for (const [name, table] of empty) if (table && !notNullable[table]) row[name] = null;
  return row;
}

/**
 * Runs each read as a subquery of one statement and answers each one's rows, keyed as given:
 * the same rows, in the same order, as awaiting each read alone.
 */
export async function readTogether<T extends Record<string, Read>>(reads: T): Promise<{ [K in keyof T]: T[K]["_"]["result"] }> {
  const parts = Object.entries(reads).map(([key, read]) => {
    const leaves = leavesOf(read._.config.fields);
    const names = leaves.map((_, index) => sql.raw(`c${index}`));
    // A derived table's own column names: the select may name two columns alike (two tables' "id").
    const text = sql`(select coalesce(json_agg(json_build_array(${sql.join(
      names.map((name) => sql`q.${name}`),
      sql`, `,
    )})), '[]')::text from (${read}) as q(${sql.join(names, sql`, `)})) as ${sql.identifier(key)}`;
    // drizzle's own record of which joined tables always have a row (a left join's may not).
    const notNullable = (read as unknown as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap ?? {};
    return { key, leaves, text, notNullable };
  });
  const [row] = await queryRows<Record<string, string>>(
    sql`select ${sql.join(
      parts.map((part) => part.text),
      sql`, `,
    )}`,
  );
  const answer: Record<string, unknown[]> = {};
  for (const { key, leaves, notNullable } of parts) {
    answer[key] = (JSON.parse(row[key]) as unknown[][]).map((values) => decode(leaves, values, notNullable));
  }
  return answer as { [K in keyof T]: T[K]["_"]["result"] };
}
