import crypto from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/*
 * A software authenticator for integration tests (no browser): a P-256 key, "none" attestation,
 * registration and sign-in answers for the relying party at `appUrl`, as a platform authenticator
 * gives them. The e2e suite drives Chromium's virtual authenticator instead.
 */

interface SoftPasskey {
  register(options: { challenge: string }): RegistrationResponseJSON;
  /** `userVerified: false`: presence only (a security key without a PIN), as the UP flag alone. */
  signIn(options: { challenge: string }, how?: { userVerified?: boolean }): AuthenticationResponseJSON;
}

export function softPasskey(appUrl: string): SoftPasskey {
  const url = new URL(appUrl);
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const credentialId = crypto.randomBytes(16);
  const id = credentialId.toString("base64url");
  const rpIdHash = crypto.createHash("sha256").update(url.hostname).digest();
  let counter = 0;
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin: url.origin, crossOrigin: false }));

  return {
    register(options) {
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]), // user present, user verified, attested credential data
        Buffer.alloc(4),
        Buffer.alloc(16),
        Buffer.from([0, credentialId.length]),
        credentialId,
        Buffer.from(isoCBOR.encode(cose)),
      ]);
      const attestation = new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]);
      return {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          clientDataJSON: clientData("webauthn.create", options.challenge).toString("base64url"),
          attestationObject: Buffer.from(isoCBOR.encode(attestation as never)).toString("base64url"),
          transports: ["internal"],
        },
      };
    },
    signIn(options, how = {}) {
      counter += 1;
      const count = Buffer.alloc(4);
      count.writeUInt32BE(counter);
      // 0x01 user present, 0x04 user verified.
      const authData = Buffer.concat([rpIdHash, Buffer.from([how.userVerified === false ? 0x01 : 0x05]), count]);
      const json = clientData("webauthn.get", options.challenge);
      const signature = crypto.sign("sha256", Buffer.concat([authData, crypto.createHash("sha256").update(json).digest()]), privateKey);
      return {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: json.toString("base64url"), authenticatorData: authData.toString("base64url"), signature: signature.toString("base64url") },
      };
    },
  };
}
