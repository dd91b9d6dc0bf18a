import { describe, expect, it } from "vitest";

import { changedData, statementKind } from "./writes";

describe("which statements change data", () => {
  it.each([
    // Only reads: nothing changes, whatever the names and literals say.
    ['select "id", "name" from "users" where "users"."id" = $1', "read"],
    ['select "comment", "lock", "do" from "posts"', "read"],
    ["select * from job where state = 'update' for update skip locked", "read"],
    ["with recent as (select id from orders) select * from recent", "read"],
    ["begin", "read"],
    ["commit", "read"],
    ["select 1;", "read"],
    // One statement that changes rows: its row count tells.
    ['insert into "sessions" ("id") values ($1)', "counted"],
    ['update "sessions" set "last_seen_at" = $1 where "id" = $2', "counted"],
    ['delete from "sessions" where "expires_at" < now()', "counted"],
    ['insert into "t" ("id") values ($1) on conflict ("id") do nothing', "counted"],
    ['insert into "t" ("id", "v") values ($1, $2) on conflict ("id") do update set "v" = excluded."v"', "counted"],
    [
      "with next as (select id from job where state = 'created' for update skip locked limit 1) update job set state = 'active', started_on = now() from next where job.id = next.id returning job.*",
      "counted",
    ],
    // A change whatever its row count: a data-modifying CTE, a sequence, DDL, several statements.
    ["with made as (insert into messages (body) values ($1) returning id) select id from made", "write"],
    ["with gone as (delete from a returning id) update b set n = n - 1 where id in (select id from gone)", "write"],
    ["select nextval('orders_number_seq')", "write"],
    ["create table t (id int)", "write"],
    ["truncate t", "write"],
    ["insert into a values (1); insert into b values (2)", "write"],
    ["do $$ begin perform 1; end $$", "write"],
    ["call archive()", "write"],
    ["vacuum analyze t", "write"],
  ])("%s is judged %s", (text, kind) => {
    expect(statementKind(text)).toBe(kind);
  });

  it("a read never changed data; a counted statement did when it touched a row or its count is unknown; a write always did", () => {
    expect(changedData("read", 5)).toBe(false);
    expect(changedData("counted", 0)).toBe(false);
    expect(changedData("counted", 1)).toBe(true);
    expect(changedData("counted", undefined)).toBe(true);
    expect(changedData("counted", null)).toBe(true);
    expect(changedData("write", 0)).toBe(true);
  });
});
