import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

import { env } from "./env.server";

/*
 * One POST to a webhook's address, guarded against reaching inside our own network
 * (docs/decisions/287): the host is resolved here, every address it resolves to must be a public
 * unicast one, and the connection goes to the address that was checked (no second lookup a DNS
 * answer could change in between). Redirects are never followed: a 3xx is an answer like any other
 * non-2xx. WEBHOOKS_ALLOW_PRIVATE=1 lifts the guard, for a receiver on the same network.
 */

export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`${address} is a private, loopback or link-local address: webhooks are not sent there`);
    this.name = "BlockedAddressError";
  }
}

/** Whether an IP address is public unicast (not private, loopback, link-local, unique-local, multicast, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

export interface WebhookAnswer {
  status: number;
  /** The first bytes of the answer's body (text). */
  excerpt: string;
}

export interface WebhookRequestOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  excerptBytes: number;
  allowPrivate?: boolean;
}

const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const blocked = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      if (blocked) return callback(new BlockedAddressError(`${hostname} (${blocked.address})`), "", 4);
      // Node types the callback in its one-address form only; with `all` it takes the list.
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 4);
      callback(null, first.address, first.family);
    });
  };

/** POSTs `body` to `url` and answers the status and the first bytes; throws on a refused address, a network error or the timeout. */
export function postWebhook(url: string, body: string, options: WebhookRequestOptions): Promise<WebhookAnswer> {
  const allowPrivate = options.allowPrivate ?? env.webhooksAllowPrivate;
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) return Promise.reject(new BlockedAddressError(host));
  const transport = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(target, {
      method: "POST",
      headers: {
        ...options.headers,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        "User-Agent": "BrandLift-Webhooks/1",
      },
      lookup: guardedLookup(allowPrivate),
      timeout: options.timeoutMs,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`)));
    request.on("error", (error) => reject(error.name === "AbortError" ? new Error(`no answer within ${options.timeoutMs / 1000} s`) : error));
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        resolve({ status: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, options.excerptBytes).toString("utf8") });
        response.destroy();
      };
      response.on("data", (chunk: Buffer) => {
        if (size < options.excerptBytes) chunks.push(chunk);
        size += chunk.length;
        // The first bytes are all the log keeps: a receiver streaming more holds nothing up.
        if (size >= options.excerptBytes) finish();
      });
      response.on("end", finish);
      response.on("error", finish);
    });
    request.end(body);
  });
}
