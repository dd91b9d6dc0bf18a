import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";

import { env, sessionSecrets } from "~/utils/env.server";

/** Flash notifications across a redirect: set by an action, shown once by the root loader. */

const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "info", "message"]).default("message"),
  message: z.string(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = Omit<Toast, "id" | "type"> & { type?: Toast["type"] };

const storage = createCookieSessionStorage({
  cookie: { name: "__toast", httpOnly: true, sameSite: "lax", path: "/", secure: env.secureCookies, secrets: sessionSecrets(env) },
});

export async function createToastHeaders(input: ToastInput) {
  const session = await storage.getSession();
  session.flash("toast", { id: crypto.randomUUID(), type: input.type ?? "message", message: input.message });
  return new Headers({ "Set-Cookie": await storage.commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  for (const cookie of (await createToastHeaders(toast)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("__toast")) return { toast: null, headers: null };
  const session = await storage.getSession(cookie);
  const parsed = toastSchema.safeParse(session.get("toast"));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({ "Set-Cookie": await storage.destroySession(session) }),
  };
}
