import { eq } from "drizzle-orm";
import { describe, expect, onTestFinished, test } from "vitest";

import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { verifyPassword } from "~/utils/password.server";

import { uniqueEmail } from "../../tests/integration/authorization/helpers";
import { createUser, findOrCreateCustomer, findUserByEmail, getUserById, toApiUser, updateUser, verifyLogin } from "./users.server";

const PASSWORD = "correct horse battery";

/** The password hash cost for the rest of the running test, put back after it. */
function withHashCost(cost: typeof env.passwordHashCost) {
  const before = env.passwordHashCost;
  env.passwordHashCost = cost;
  onTestFinished(() => {
    env.passwordHashCost = before;
  });
}

/** Parses a PHC string: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>. */
function parsePhc(phc: string) {
  const [, algorithm, version, params, salt, hash] = phc.split("$");
  return {
    algorithm,
    version,
    params: Object.fromEntries(
      params
        .split(",")
        .map((pair) => pair.split("="))
        .map(([k, v]) => [k, Number(v)]),
    ),
    salt,
    hash,
  };
}

describe("users", () => {
  test("the stored password hash is argon2id with m=19456 KiB, t=2, p=1 and a random salt", async () => {
    // The production cost, whatever npm test's setting (decision 312; env.server.test.ts: it holds only under NODE_ENV=test).
    withHashCost("production");
    const a = await createUser({ email: uniqueEmail(), name: "Ada", password: PASSWORD });
    const b = await createUser({ email: uniqueEmail(), name: "Bea", password: PASSWORD });
    const phc = parsePhc(a.passwordHash!);
    expect(phc.algorithm).toBe("argon2id");
    expect(phc.version).toBe("v=19");
    expect(phc.params).toEqual({ m: 19456, t: 2, p: 1 });
    expect(Buffer.from(phc.salt, "base64").length).toBeGreaterThanOrEqual(16);
    expect(a.passwordHash).not.toContain(PASSWORD);
    expect(parsePhc(b.passwordHash!).salt).not.toBe(phc.salt);
    expect(await verifyPassword(PASSWORD, a.passwordHash)).toBe(true);
  });

  test("npm test's cheaper hash (PASSWORD_HASH_COST=test) is argon2id too, salted, and checks the same way", async () => {
    withHashCost("test");
    const a = await createUser({ email: uniqueEmail(), name: "Ada", password: PASSWORD });
    const phc = parsePhc(a.passwordHash!);
    expect(phc.algorithm).toBe("argon2id");
    expect(phc.params).toEqual({ m: 64, t: 1, p: 1 });
    expect(Buffer.from(phc.salt, "base64").length).toBeGreaterThanOrEqual(16);
    expect(await verifyPassword(PASSWORD, a.passwordHash)).toBe(true);
    expect(await verifyPassword("wrong", a.passwordHash)).toBe(false);
  });

  test("e-mail lookups ignore case and surrounding spaces; e-mails are stored lower-case", async () => {
    const email = uniqueEmail("Mixed");
    const user = await createUser({ email: `  ${email.toUpperCase()} `, name: "Casey" });
    expect(user.email).toBe(email.toLowerCase());
    expect((await findUserByEmail(email.toUpperCase()))?.id).toBe(user.id);
    expect(await findUserByEmail(`other-${email}`)).toBeNull();
    expect((await getUserById(user.id))?.email).toBe(email.toLowerCase());
    expect(await getUserById("not-a-uuid")).toBeNull();
  });

  test("a second account with the same e-mail in another case is refused by the database", async () => {
    const email = uniqueEmail();
    await createUser({ email, name: "First" });
    await expect(createUser({ email: email.toUpperCase(), name: "Second" })).rejects.toThrow();
  });

  test("updateUser changes the name, role and password", async () => {
    const user = await createUser({ email: uniqueEmail(), name: "Old", password: PASSWORD });
    const updated = await updateUser(user.id, { name: " New ", role: "team", password: "another password" });
    expect(updated).toMatchObject({ name: "New", role: "team" });
    expect(await verifyLogin(user.email, PASSWORD)).toBeNull();
    expect((await verifyLogin(user.email, "another password"))?.id).toBe(user.id);
  });

  test("findOrCreateCustomer finds an account whatever the case, or creates a customer without a password", async () => {
    const email = uniqueEmail("buyer");
    const first = await findOrCreateCustomer(email.toUpperCase(), "  Buyer One ");
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({ email: email.toLowerCase(), name: "Buyer One", role: "user", passwordHash: null });
    const again = await findOrCreateCustomer(email, "Someone Else");
    expect(again).toMatchObject({ created: false, user: { id: first.user.id, name: "Buyer One" } });
  });

  test("findOrCreateCustomer run twice at once yields one account", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all([findOrCreateCustomer(email, "A"), findOrCreateCustomer(email, "B")]);
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toHaveLength(1);
  });

  test("verifyLogin: the right password signs in; a wrong one, an unknown e-mail, no password or a disabled account do not", async () => {
    const user = await createUser({ email: uniqueEmail(), name: "Dana", password: PASSWORD });
    expect((await verifyLogin(user.email.toUpperCase(), PASSWORD))?.id).toBe(user.id);
    expect(await verifyLogin(user.email, "wrong password")).toBeNull();
    expect(await verifyLogin(uniqueEmail("nobody"), PASSWORD)).toBeNull();
    const passwordless = await createUser({ email: uniqueEmail(), name: "No Password" });
    expect(await verifyLogin(passwordless.email, "")).toBeNull();
    await db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, user.id));
    expect(await verifyLogin(user.email, PASSWORD)).toBeNull();
  });

  test("a wrong password and an unknown e-mail take about the same time (both verify an argon2 hash)", async () => {
    // At the production cost: npm test's cheap hash costs no more than the lookup around it (decision 312).
    withHashCost("production");
    const user = await createUser({ email: uniqueEmail(), name: "Timing", password: PASSWORD });
    const time = async (email: string) => {
      const start = performance.now();
      await verifyLogin(email, "wrong password");
      return performance.now() - start;
    };
    await time(uniqueEmail("warm-up"));
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time(user.email));
      unknown.push(await time(uniqueEmail("nobody")));
    }
    const ratio = median(unknown) / median(known);
    // Without the dummy hash an unknown e-mail answers in well under a tenth of the time; the
    // wide bounds leave room for a busy machine.
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  test("toApiUser has the contract's fields", async () => {
    const user = await createUser({ email: uniqueEmail(), name: "Api", role: "team" });
    expect(toApiUser(user)).toEqual({ _id: user.id, id: user.id, name: "Api", email: user.email, role: "team" });
  });
});
