import { hash, verify } from "@node-rs/argon2";

import { env } from "./env.server";

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). */
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolatedModules cannot import).
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * `npm test`'s cost: argon2id at its smallest, set by vitest.config.ts (PASSWORD_HASH_COST=test) and
 * honoured only with NODE_ENV=test (env.server.ts). The suite hashes and checks about 500 passwords:
 * at the real cost that was seconds of CPU on a 2-core machine. A hash names its own parameters, so
 * checking one is the same code at either cost (decision 312).
 */
const TEST_OPTIONS = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

const hashOptions = () => (env.passwordHashCost === "test" ? TEST_OPTIONS : ARGON2_OPTIONS);

export function hashPassword(password: string) {
  return hash(password, hashOptions());
}

// A real hash to verify against when the account does not exist, so both cases cost the same (one per cost).
const dummyHashes = new Map<object, Promise<string>>();

export async function verifyPassword(password: string, passwordHash: string | null | undefined) {
  if (!passwordHash) {
    const options = hashOptions();
    let dummyHash = dummyHashes.get(options);
    if (!dummyHash) dummyHashes.set(options, (dummyHash = hash("not-a-real-password", options)));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
