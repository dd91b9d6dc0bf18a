import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/*
 * A large statement built once per shape. drizzle turns a `sql` template into text by walking every
 * nested fragment, column and parameter on each call: for a statement of many parts (a chat
 * message's, decision 135) that walk is most of the CPU the send spends before PostgreSQL.
 * `statementShapes` builds the statement once per shape with named placeholders, keeps its text cut
 * at the parameters, and afterwards only fills the values in: a flat template drizzle passes through
 * at once. The text and parameters sent are the same as the full build's (a test compares them).
 */

/** Marks a parameter's place in the text: a byte no statement of ours contains. */
const MARK = "\u0001";

class MarkingDialect extends PgDialect {
  override escapeParam(num: number): string {
    return `${MARK}${num + 1}${MARK}`;
  }
}

const marking = new MarkingDialect();

interface Shape {
  strings: TemplateStringsArray;
  params: unknown[];
}

/** At most this many shapes are kept; later ones are built in full each time. */
const SHAPES_MAX = 256;

/**
 * `statement(key, build, values)`: the statement `build(values)` would give, built in full only the
 * first time `key` is seen (with a placeholder for each of `values`' names) and filled in after that.
 * `key` must name everything the statement's text depends on other than `values`.
 */
export function statementShapes<Values extends Record<string, unknown>>() {
  const shapes = new Map<string, Shape | null>();
  return (key: string, build: (values: { [K in keyof Values]: unknown }) => SQL, values: Values): SQL => {
    let shape = shapes.get(key);
    if (shape === undefined) {
      const placeholders = Object.fromEntries(Object.keys(values).map((name) => [name, sql.placeholder(name)]));
      shape = cut(build(placeholders as { [K in keyof Values]: unknown }));
      if (shapes.size < SHAPES_MAX) shapes.set(key, shape);
    }
    if (!shape) return build(values);
    return sql(shape.strings, ...fillPlaceholders(shape.params, values));
  };
}

/** The statement's text cut at its parameters, or null when the text holds the marking byte itself. */
function cut(statement: SQL): Shape | null {
  const { sql: text, params } = marking.sqlToQuery(statement);
  const parts = text.split(MARK);
  if (parts.length !== params.length * 2 + 1) return null;
  for (let i = 1; i < parts.length; i += 2) if (parts[i] !== String((i + 1) / 2)) return null;
  const strings = parts.filter((_, i) => i % 2 === 0);
  const template: TemplateStringsArray = Object.assign(strings, { raw: [...strings] });
  return { strings: template, params };
}
