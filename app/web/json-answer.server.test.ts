import { describe, expect, test } from "vitest";

import { answersJson, isJsonAnswer, jsonAnswer, jsonText, lasting, lastingPer } from "./json-answer.server";

describe("JSON answers for the fast path", () => {
  test("a lasting value is frozen all the way down and its text is made once", () => {
    const value = lasting({ success: true, data: [{ name: "Zoë", tags: ["a"] }] });
    expect(Object.isFrozen(value.data[0]!.tags)).toBe(true);
    expect(() => (value.data as { name: string }[]).push({ name: "x" })).toThrow(TypeError);
    const first = jsonText(value);
    expect(first).toBe('{"success":true,"data":[{"name":"Zoë","tags":["a"]}]}');
    expect(jsonText(value)).toBe(first);
  });

  test("a value that can change is written afresh each time", () => {
    const value = { count: 1 };
    expect(jsonText(value)).toBe('{"count":1}');
    value.count = 2;
    expect(jsonText(value)).toBe('{"count":2}');
    expect(jsonText(null)).toBe("null");
  });

  test("only what jsonAnswer made is one, and only a route with answerJson gives one", () => {
    expect(isJsonAnswer(jsonAnswer(201, "{}"))).toBe(true);
    expect(isJsonAnswer({ status: 200, text: "{}" })).toBe(false);
    expect(isJsonAnswer(Response.json({}))).toBe(false);
    const route = Object.assign(() => Promise.resolve(Response.json({})), { answerJson: () => Promise.resolve(jsonAnswer(200, "{}")) });
    expect(answersJson(route)).toBe(true);
    expect(answersJson(() => Promise.resolve(Response.json({})))).toBe(false);
  });

  test("one lasting answer per source: made once for each, a new source gets its own", () => {
    let made = 0;
    const answerOf = lastingPer((source: { names: string[] }) => {
      made += 1;
      return { data: source.names.map((name) => ({ name })) };
    });
    const first = { names: ["Zoë"] };
    const answer = answerOf(first);
    expect(answerOf(first)).toBe(answer);
    expect(Object.isFrozen(answer.data[0])).toBe(true);
    const second = answerOf({ names: ["José"] });
    expect(second).not.toBe(answer);
    expect(jsonText(second)).toBe('{"data":[{"name":"José"}]}');
    expect(made).toBe(2);
  });
});
