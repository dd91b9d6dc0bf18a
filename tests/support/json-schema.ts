import crypto from "node:crypto";

/*
 * A small JSON Schema (2020-12) validator and value generator for the subset the OpenAPI document
 * uses (what zod 4's toJSONSchema emits): type, const, enum, anyOf/oneOf/allOf, properties,
 * required, additionalProperties, items, length and number bounds, pattern, format, $ref to
 * #/components/schemas. Enough for the conformance suite; no package needed.
 */

export type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  default?: unknown;
};

export type Root = { components?: { schemas?: Record<string, Schema> } };

const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
};

function resolve(schema: Schema, root: Root): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  const target = root.components?.schemas?.[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return target;
}

const typeOf = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;

/** The reasons `value` is not valid by `schema` (empty when it is). */
export function validate(schemaIn: Schema, value: unknown, root: Root, at = "$"): string[] {
  const schema = resolve(schemaIn, root);
  const errors: string[] = [];
  if (schema.allOf) for (const part of schema.allOf) errors.push(...validate(part, value, root, at));
  const options = schema.anyOf ?? schema.oneOf;
  if (options && !options.some((option) => validate(option, value, root, at).length === 0)) errors.push(`${at}: matches none of anyOf/oneOf`);
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) errors.push(`${at}: is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) errors.push(`${at}: not in enum`);
  if (schema.type) {
    const types = [schema.type].flat();
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === "integer" && types.includes("number"))) return [...errors, `${at}: ${actual} is not ${types.join("|")}`];
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
    if (schema.format && FORMATS[schema.format] && !FORMATS[schema.format]!.test(value)) errors.push(`${at}: not a ${schema.format}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) errors.push(`${at}: not above ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) errors.push(`${at}: not below ${schema.exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((item, i) => errors.push(...validate(schema.items!, item, root, `${at}[${i}]`)));
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) errors.push(`${at}.${name}: required`);
    for (const [name, item] of Object.entries(object)) {
      const property = schema.properties?.[name];
      if (property) errors.push(...validate(property, item, root, `${at}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${name}: not allowed`);
      else if (typeof schema.additionalProperties === "object") errors.push(...validate(schema.additionalProperties, item, root, `${at}.${name}`));
    }
  }
  return errors;
}

/** A string satisfying a pattern zod emits for its formats and the few patterns of our schemas. */
function stringFor(schema: Schema): string {
  if (schema.format === "email") return `conformance-${crypto.randomBytes(4).toString("hex")}@example.test`;
  if (schema.format === "uuid") return crypto.randomUUID();
  if (schema.format === "date-time") return new Date().toISOString();
  if (schema.format === "date") return new Date().toISOString().slice(0, 10);
  if (schema.format === "uri") return "https://example.test/conformance";
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? Math.max(min, 12);
  const candidates = ["Conformance check", "12", "abc-DEF_123", "a"];
  for (const candidate of candidates) {
    const text = candidate.length < min ? candidate.padEnd(min, "x") : candidate.slice(0, Math.max(min, Math.min(max, candidate.length)));
    if (!schema.pattern || new RegExp(schema.pattern, "u").test(text)) return text;
  }
  throw new Error(`no sample string for pattern ${schema.pattern}`);
}

/** A value valid by `schema`: every property present (optional ones too), the lowest bounds. */
export function sample(schemaIn: Schema, root: Root): unknown {
  const schema = resolve(schemaIn, root);
  if ("const" in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(options.find((option) => resolve(option, root).type !== "null") ?? options[0]!, root);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(part, root)));
  const type = [schema.type ?? "object"].flat().find((t) => t !== "null") ?? "null";
  switch (type) {
    case "string":
      return stringFor(schema);
    case "integer":
    case "number": {
      let value = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
      return value;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items ?? {}, root));
    default:
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sample(property, root)]));
  }
}

/** Values each invalid by `schema` for one reason, with that reason. */
export function invalidValues(schemaIn: Schema, root: Root): { why: string; value: unknown }[] {
  const schema = resolve(schemaIn, root);
  const out: { why: string; value: unknown }[] = [];
  const wrongTypes: unknown[] = [true, null, [5], { x: 1 }, 5, "text"];
  for (const value of wrongTypes) if (validate(schema, value, root).length > 0) out.push({ why: `wrong type ${JSON.stringify(value)}`, value });
  if (schema.format && FORMATS[schema.format]) out.push({ why: `not a ${schema.format}`, value: "not-a-" + schema.format });
  if (schema.maxLength !== undefined) out.push({ why: `longer than ${schema.maxLength}`, value: "y".repeat(schema.maxLength + 1) });
  if (schema.minLength !== undefined && schema.minLength > 0) out.push({ why: `shorter than ${schema.minLength}`, value: "" });
  if (schema.minimum !== undefined) out.push({ why: `below ${schema.minimum}`, value: schema.minimum - 1 });
  if (schema.exclusiveMinimum !== undefined) out.push({ why: `not above ${schema.exclusiveMinimum}`, value: schema.exclusiveMinimum });
  if (schema.maximum !== undefined) out.push({ why: `above ${schema.maximum}`, value: schema.maximum + 1 });
  if (schema.enum) out.push({ why: "not in the enum", value: "not-one-of-them" });
  return out.filter(({ value }) => validate(schema, value, root).length > 0);
}
