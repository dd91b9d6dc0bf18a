import { health } from "~/web/boot.server";

/** GET /healthz: {status, database, redis}; 503 only when the database does not answer (docs/decisions/061-health-and-process-policy.md). */
export async function loader() {
  const body = await health();
  return Response.json(body, { status: body.status === "unavailable" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
}
