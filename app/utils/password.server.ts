import { hash, verify } from "@node-rs/argon2";

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). */
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolatedModules cannot import).
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string) {
  return hash(password, ARGON2_OPTIONS);
}

// A real hash to verify against when the account does not exist, so both cases cost the same.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, passwordHash: string | null | undefined) {
  if (!passwordHash) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
