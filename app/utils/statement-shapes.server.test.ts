import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, test } from "vitest";

import { statementShapes } from "./statement-shapes.server";

const dialect = new PgDialect();

describe("statementShapes", () => {
  test("builds a shape once and afterwards fills its values in, sending what the full build sends", () => {
    const statement = statementShapes<{ name: string; at: string | null }>();
    let builds = 0;
    const build = (wide: boolean) => (v: { name: unknown; at: unknown }) => {
      builds++;
      return sql`select ${v.name}::text as name, ${sql.join([sql`${"a"}`, sql`${v.at}`], sql`, `)} as list${wide ? sql`, ${v.name}::text as again` : sql``}`;
    };
    for (const [key, wide] of [
      ["narrow", false],
      ["wide", true],
    ] as const) {
      for (const values of [
        { name: "Ann", at: null },
        { name: "Bo $1 'quoted'", at: "2026-11-29" },
      ]) {
        expect(dialect.sqlToQuery(statement(key, build(wide), values))).toEqual(dialect.sqlToQuery(build(wide)(values)));
      }
    }
    // One build per shape in `statement`, one per comparison above.
    expect(builds).toBe(2 + 4);
  });

  test("a text holding the marking byte is built in full each time", () => {
    const statement = statementShapes<{ name: string }>();
    const build = (v: { name: unknown }) => sql`select ${v.name}::text, ${sql.raw("'\u0001'")} as odd`;
    for (const name of ["one", "two"]) expect(dialect.sqlToQuery(statement("odd", build, { name }))).toEqual(dialect.sqlToQuery(build({ name })));
  });
});
