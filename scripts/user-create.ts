import { parseArgs } from "node:util";

import { emailField, newPasswordField } from "~/domain/schemas/auth";
import { line, z } from "~/domain/zod";
import { issuePasswordToken, PASSWORD_TOKEN_TTL_MS, passwordLink } from "~/models/password-tokens.server";
import { revokeAllSessions } from "~/models/sessions.server";
import { createUser, findUserByEmail, updateUser } from "~/models/users.server";
import { database } from "~/utils/db.server";

/**
 * npm run user:create -- --email E --name N --role team|user [--password P]
 * Creates the account, or updates the one with that e-mail. Without --password it prints a
 * one-time link (valid one hour) with which the person chooses their own password.
 */

const USAGE = "Usage: npm run user:create -- --email E --name N --role team|user [--password P]";

const argsSchema = z.object({
  email: emailField,
  name: line(
    z.string({ error: "--name is required" }).trim().min(1, { error: "--name is required" }).max(100, { error: "--name is at most 100 characters" }),
    "--name",
  ),
  role: z.enum(["team", "user"], { error: "--role must be team or user" }),
  password: newPasswordField.optional(),
});

function fail(messages: string[]): never {
  for (const message of messages) console.error(`Error: ${message}`);
  console.error(USAGE);
  process.exit(1);
}

function readArgs() {
  try {
    const { values } = parseArgs({
      options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" }, password: { type: "string" } },
      allowPositionals: false,
      strict: true,
    });
    return values;
  } catch (error) {
    return fail([error instanceof Error ? error.message : String(error)]);
  }
}

const parsed = argsSchema.safeParse(readArgs());
if (!parsed.success) fail(parsed.error.issues.map((issue) => issue.message));
const { email, name, role, password } = parsed.data;

try {
  await database.migrate();
  const existing = await findUserByEmail(email);
  const user = existing ? await updateUser(existing.id, { name, role, password }) : await createUser({ email, name, role, password });
  // A new password set from the command line ends every session signed in with the old one.
  if (existing && password !== undefined) await revokeAllSessions(user.id);
  console.log(`${existing ? "Updated" : "Created"} ${user.role} account ${user.email} (${user.name}).`);
  if (password === undefined) {
    const token = await issuePasswordToken(user.id, "set");
    console.log(`Set-password link (works once, for ${PASSWORD_TOKEN_TTL_MS.set / 86_400_000} days):`);
    console.log(passwordLink(token));
  }
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
