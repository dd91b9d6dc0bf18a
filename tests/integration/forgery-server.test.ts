import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

import { ensureBuild, freePort, startServer, type ServerProcess } from "../support/server-process";

/*
 * The forgery probe from outside, against the production server: a signed-in staff member's
 * browser made to post from a page on another port of the host (same site, so SameSite=Lax sends
 * the cookie), and through Remix's legacy `?_data` path, which skips Remix's own origin check.
 */

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const DEMO_STAFF = { email: "team@brandlift.test", password: "brandlift-demo" };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-forgery-"));
let server: ServerProcess;
let appOrigin: string;
let attackerOrigin: string;
let cookie: string;

beforeAll(async () => {
  ensureBuild();
  const port = await freePort();
  appOrigin = `http://127.0.0.1:${port}`;
  attackerOrigin = `http://127.0.0.1:${port + 1}`;
  // A fresh embedded database migrates and seeds first: slow on a busy machine.
  server = await startServer({ PORT: String(port), APP_URL: appOrigin, DATA_DIR: dataDir, LOG_LEVEL: "info" }, { timeoutMs: 180_000 });
  const signedIn = await fetch(`${appOrigin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { ...FORM, Origin: appOrigin },
    body: new URLSearchParams({ ...DEMO_STAFF, redirectTo: "/dashboard" }),
  });
  expect(signedIn.status, server.output()).toBe(302);
  cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}, 240_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (pathname: string, fields: Record<string, string>, headers: Record<string, string>) =>
  fetch(`${appOrigin}${pathname}`, { method: "POST", redirect: "manual", headers: { ...FORM, ...headers }, body: new URLSearchParams(fields) });
const stillSignedIn = async () => (await fetch(`${appOrigin}/dashboard/users`, { headers: { Cookie: cookie }, redirect: "manual" })).status === 200;
const teamPage = async () => (await fetch(`${appOrigin}/dashboard/team`, { headers: { Cookie: cookie } })).text();
/** pino's error and fatal lines in the server's output. */
const errorLines = () =>
  server
    .output()
    .split("\n")
    .filter((line) => /"level":(50|60)/.test(line));

test("a staff invitation through `?_data` is refused, from any origin", async () => {
  const invite = { intent: "invite", name: "Mallory", email: "mallory@attacker.example" };
  for (const origin of [attackerOrigin, appOrigin]) {
    const answer = await post("/dashboard/team?_data=routes%2Fdashboard.team", invite, { Cookie: cookie, Origin: origin });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ status: "error", code: "LEGACY_DATA_REQUEST" });
  }
  expect(await teamPage()).not.toContain("mallory@attacker.example");
});

test("a page post from another port of the host is refused with 403 (not 500) and logs no error", async () => {
  const invite = await post(
    "/dashboard/team",
    { intent: "invite", name: "Mallory", email: "mallory2@attacker.example" },
    { Cookie: cookie, Origin: attackerOrigin },
  );
  expect(invite.status).toBe(403);
  expect(await invite.json()).toMatchObject({ status: "error", code: "BAD_ORIGIN" });
  expect(await teamPage()).not.toContain("mallory2@attacker.example");
  // Without a cookie too: a forged sign-in.
  const login = await post("/login", DEMO_STAFF, { Origin: attackerOrigin });
  expect(login.status).toBe(403);
  expect(errorLines()).toEqual([]);
});

test("POST /logout from another origin does not sign out; from our own page it does", async () => {
  const forged = await post("/logout", {}, { Cookie: cookie, "Sec-Fetch-Site": "same-site" });
  expect(forged.status).toBe(403);
  expect(await stillSignedIn()).toBe(true);
  const own = await post("/logout", {}, { Cookie: cookie, Origin: appOrigin });
  expect(own.status).toBe(302);
  expect(await stillSignedIn()).toBe(false);
});
