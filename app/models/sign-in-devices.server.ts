import { and, eq, ne, sql } from "drizzle-orm";

import { describeDevice } from "~/domain/billing";
import { afterResponse } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { hashToken } from "~/utils/tokens.server";

/*
 * New-device e-mails (docs/decisions/233). Every completed sign-in names the device
 * it came from: a browser by its long-lived device cookie, an API client by its user agent and
 * address. A device the account has not signed in from before is recorded and, unless it is the
 * account's first, the account is e-mailed the device (from the user agent) and the address. No
 * outside lookup. It all runs after the answer: a slow or failing mailer never delays or fails a
 * sign-in.
 */

export type SignInTransport = "cookie" | "bearer";

export interface SignInDevice {
  userId: string;
  transport: SignInTransport;
  /** The browser's device id (from its cookie); unused for an API client. */
  browserId?: string;
  userAgent: string | null;
  ip: string;
}

export const NEW_DEVICE_SUBJECT = "New sign-in to your BrandLift account";

/** The key a device is stored under: a hash, so the table holds no cookie value. */
function deviceKey(device: SignInDevice) {
  return device.transport === "cookie" ? hashToken(`browser:${device.browserId}`) : hashToken(`api:${device.userAgent ?? ""}\n${device.ip}`);
}

/** An address as people read it: an IPv4 address without its IPv6 wrapping. */
function displayAddress(ip: string) {
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}

function deviceDescription(transport: SignInTransport, userAgent: string | null) {
  const device = describeDevice(userAgent);
  return transport === "bearer" ? `API sign-in (${device})` : device;
}

/**
 * Records the device of a sign-in; true when it was new to an account that had signed in from
 * another before (the e-mail is due). `quiet`: record only (the account's first password).
 */
async function recordSignInDevice(device: SignInDevice, options: { quiet?: boolean } = {}): Promise<boolean> {
  const key = deviceKey(device);
  const description = deviceDescription(device.transport, device.userAgent);
  const ip = displayAddress(device.ip).slice(0, 100);
  return db.transaction(async (tx) => {
    const [added] = await tx
      .insert(schema.signInDevices)
      .values({ userId: device.userId, deviceKey: key, kind: device.transport, description, ip })
      .onConflictDoNothing()
      .returning({ id: schema.signInDevices.id });
    if (!added) {
      await tx
        .update(schema.signInDevices)
        .set({ lastSeenAt: sql`now()`, ip, description })
        .where(and(eq(schema.signInDevices.userId, device.userId), eq(schema.signInDevices.deviceKey, key)));
      return false;
    }
    if (options.quiet) return false;
    const [other] = await tx
      .select({ id: schema.signInDevices.id })
      .from(schema.signInDevices)
      .where(and(eq(schema.signInDevices.userId, device.userId), ne(schema.signInDevices.id, added.id)))
      .limit(1);
    return !!other;
  });
}

/** The e-mail that tells an account about a sign-in from a new device. */
async function sendNewDeviceEmail(device: SignInDevice, at: Date) {
  const [user] = await db.select({ name: schema.users.name, email: schema.users.email }).from(schema.users).where(eq(schema.users.id, device.userId));
  if (!user) return;
  const when = `${new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
  await sendEmail({
    to: user.email,
    category: "security",
    subject: NEW_DEVICE_SUBJECT,
    heading: "A new device signed in",
    paragraphs: [
      `Hi ${user.name},`,
      "Your BrandLift account was just signed in from a device it has not used before:",
      `Device: ${deviceDescription(device.transport, device.userAgent)}`,
      `Address: ${displayAddress(device.ip)}`,
      `When: ${when}`,
      "If this was you, there is nothing to do. If it was not, change your password now and sign out the sessions you do not know on your account page; turning on two-factor sign-in keeps a password alone from being enough.",
    ],
    action: { label: "Review your sessions", url: `${env.appUrl}/dashboard/account` },
  });
}

/** After the answer: records the device and, when it is new, e-mails the account. Never throws. */
export function noteSignInDevice(device: SignInDevice, options: { quiet?: boolean } = {}) {
  const at = new Date();
  afterResponse("new-device check", async () => {
    let isNew: boolean;
    try {
      isNew = await recordSignInDevice(device, options);
    } catch (error) {
      logger.error({ err: error, userId: device.userId }, "could not record the sign-in device");
      return;
    }
    if (!isNew) return;
    try {
      await sendNewDeviceEmail(device, at);
    } catch (error) {
      logger.error({ err: error, userId: device.userId }, "could not send the new-device e-mail");
    }
  });
}

/** The devices the account signed in from, newest first, as the owner's data export lists them (never the device key). */
export async function listSignInDevices(userId: string) {
  const d = schema.signInDevices;
  const rows = await db
    .select({ kind: d.kind, description: d.description, ip: d.ip, createdAt: d.createdAt, lastSeenAt: d.lastSeenAt })
    .from(d)
    .where(eq(d.userId, userId))
    .orderBy(sql`${d.lastSeenAt} desc`);
  return rows.map((row) => ({
    kind: row.kind,
    description: row.description,
    ip: row.ip,
    firstSeenAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  }));
}
