import { healthy } from "~/utils/boot.server";

export async function loader() {
  const ok = await healthy();
  return Response.json(ok ? { status: "ok" } : { status: "unavailable" }, {
    status: ok ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
