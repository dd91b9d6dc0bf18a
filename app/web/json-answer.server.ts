/*
 * A JSON success as text, for the API's fast path (server/api-fast-path.ts): it writes the text
 * itself, so no Response (and no body stream) is built for the most common answer. An /api route
 * answers one only through its `answerJson` (apiRoute's); Remix calls the route and always gets a
 * Response. The mark is a registered symbol: the server and the app are bundled apart.
 */
const JSON_ANSWER = Symbol.for("brandlift.json-answer");

export interface JsonAnswer {
  readonly [JSON_ANSWER]: true;
  readonly status: number;
  readonly text: string;
}

export function jsonAnswer(status: number, text: string): JsonAnswer {
  return { [JSON_ANSWER]: true, status, text };
}

export function isJsonAnswer(value: unknown): value is JsonAnswer {
  return typeof value === "object" && value !== null && (value as Partial<JsonAnswer>)[JSON_ANSWER] === true;
}

/** A route that can answer a JSON success as text: an apiRoute (app/web/api.server.ts). */
export interface AnswersJson<Args> {
  answerJson(args: Args): Promise<Response | JsonAnswer>;
}

export function answersJson<F extends object, Args>(route: F): route is F & AnswersJson<Args> {
  return typeof (route as Partial<AnswersJson<Args>>).answerJson === "function";
}

const texts = new WeakMap<object, string>();

/**
 * The JSON text of a value. A value frozen by `lasting()` never changes, so its text is made once
 * and kept with it (the catalogue is the same answer until it changes).
 */
export function jsonText(value: unknown): string {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** Freezes a value and everything in it: an answer shared by many requests that nothing may change. */
export function lasting<T>(value: T): Readonly<T> {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) lasting(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * One lasting answer per source object (a catalogue snapshot): made the first time it is asked
 * for, kept while the source lives, so its JSON text is made once too.
 */
export function lastingPer<S extends object, T>(make: (source: S) => T): (source: S) => Readonly<T> {
  const answers = new WeakMap<S, Readonly<T>>();
  return (source) => {
    let answer = answers.get(source);
    if (answer === undefined) {
      answer = lasting(make(source));
      answers.set(source, answer);
    }
    return answer;
  };
}
