/** Form intents and field names shared by the landing page's forms; no zod, so the page stays light. */

export const ORDER_INTENT = "order";
export const PLAN_INTENT = "plan";
/** The contact section's own intent, re-exported so the action names all three in one place. */
export { CONTACT_INTENT } from "~/components/landing/contact";

/** How the order form names an "Our Services" package: `<sample service id>:<package name>`. */
export function packageKey({ serviceId, packageName }: { serviceId: string; packageName: string }) {
  return `${serviceId}:${packageName.toLowerCase()}`;
}
