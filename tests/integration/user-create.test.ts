import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, test } from "vitest";

import { verifyPassword } from "~/utils/password.server";
import { hashToken } from "~/utils/tokens.server";

/** `npm run user:create` as an operator runs it: a separate process on its own embedded database. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-user-create-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function userCreate(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", APP_URL: "https://brandlift.example", NODE_ENV: "test" };
  try {
    const { stdout, stderr } = await promisify(execFile)("node_modules/.bin/tsx", ["scripts/user-create.ts", ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const pg = new PGlite(path.join(dataDir, "pglite"));
  try {
    return (await pg.query<T>(sql, params)).rows;
  } finally {
    await pg.close();
  }
}

describe("npm run user:create", () => {
  test("creates an account without a password and prints a one-time set-password link; run again, it updates", { timeout: 60_000 }, async () => {
    const created = await userCreate("--email", "Ops@Example.com", "--name", "Olive Ops", "--role", "team");
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Created team account ops@example.com (Olive Ops).");
    const link = /https:\/\/brandlift\.example\/reset-password\?token=([\w-]{43})/.exec(created.stdout);
    expect(link).not.toBeNull();

    const [row] = await query<{ id: string; role: string; password_hash: string | null }>(
      "select id, role, password_hash from users where email = 'ops@example.com'",
    );
    expect(row).toMatchObject({ role: "team", password_hash: null });
    const tokens = await query<{ purpose: string }>("select purpose from password_tokens where token_hash = $1", [hashToken(link![1])]);
    expect(tokens).toEqual([{ purpose: "set" }]);

    const updated = await userCreate("--email", "ops@example.com", "--name", "Olive O.", "--role", "user", "--password", "operator password");
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain("Updated user account ops@example.com (Olive O.).");
    expect(updated.stdout).not.toContain("reset-password");
    const [after] = await query<{ id: string; name: string; role: string; password_hash: string }>(
      "select id, name, role, password_hash from users where lower(email) = 'ops@example.com'",
    );
    expect(after).toMatchObject({ id: row.id, name: "Olive O.", role: "user" });
    expect(await verifyPassword("operator password", after.password_hash)).toBe(true);
  });

  test("refuses bad arguments with the reasons and the usage, and changes nothing", { timeout: 60_000 }, async () => {
    const bad = await userCreate("--email", "not-an-email", "--role", "admin", "--password", "short");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid email address");
    expect(bad.stderr).toContain("--name is required");
    expect(bad.stderr).toContain("--role must be team or user");
    expect(bad.stderr).toContain("Password must be at least 8 characters");
    expect(bad.stderr).toContain("Usage: npm run user:create");
    const unknown = await userCreate("--email", "x@example.com", "--nmae", "Typo", "--role", "user");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown option '--nmae'");
  });
});
