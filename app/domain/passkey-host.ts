/*
 * Passkeys are bound to a domain (the relying party ID): a browser refuses them on an IP address,
 * and on any host other than the one the site is configured with (APP_URL).
 */

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function isIpAddress(host: string) {
  return IPV4.test(host) || host.includes(":") || (host.startsWith("[") && host.endsWith("]"));
}

/** Why passkeys cannot work on this page, in words for the person, or null when they can (`siteHost`: APP_URL's, where known). */
export function passkeyHostProblem(pageHost: string, siteHost: string = pageHost): string | null {
  if (isIpAddress(pageHost) || isIpAddress(siteHost)) {
    return `Passkeys need a domain name: this site is open at an IP address (${isIpAddress(pageHost) ? pageHost : siteHost}), where browsers refuse them. Open it at its domain name to use passkeys.`;
  }
  if (pageHost !== siteHost) return `Passkeys for this site belong to ${siteHost}: open it there to use them.`;
  return null;
}
