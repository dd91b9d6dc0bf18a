import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { decodeCursor, encodeCursor, markReadFormSchema, NOTIFICATION_KIND_LABELS } from "~/domain/notifications";
import { formatDate } from "~/domain/purchase";
import { listNotifications, markNotificationsRead, unreadCount } from "~/models/notifications.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/notifications (docs/decisions/289): what you were told, newest first, 20 a page, each
 * linking to its page; mark one or all read with plain forms (the same without JavaScript). The
 * bell in the sidebar counts the unread ones.
 */

/** 20 to a screen (the API's pages are 50): a signed-in page stays well within 40 KB of HTML. */
const ON_SCREEN = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const unreadOnly = url.searchParams.get("unread") === "1";
  const before = decodeCursor(url.searchParams.get("before") ?? "");
  const [notifications, unread] = await Promise.all([listNotifications(user.id, { unread: unreadOnly, before, limit: ON_SCREEN }), unreadCount(user.id)]);
  const last = notifications.at(-1);
  const next = notifications.length === ON_SCREEN && last ? encodeCursor(last.createdAt, last._id) : null;
  return { notifications, unread, unreadOnly, next, paged: Boolean(before) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: markReadFormSchema });
  const back = `/dashboard/notifications${new URL(request.url).search}`;
  if (submission.status !== "success") {
    return redirectWithToast(back, { type: "error", message: Object.values(submission.error ?? {}).flat()[0] ?? "Nothing to mark read." });
  }
  const { id, all } = submission.value;
  await markNotificationsRead(user.id, all ? { all: true } : { ids: [id!] });
  return redirectWithToast(back, { type: "success", message: all ? "All notifications marked read." : "Marked read." });
}

export default function NotificationsPage() {
  const { notifications, unread, unreadOnly, next, paged } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="notifications-heading" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="notifications-heading" className="text-xl font-bold text-slate-950">
            Notifications
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {unread === 0 ? "Nothing unread." : `${unread} unread.`}{" "}
            <Link to="/dashboard/notifications/settings" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              E-mail choices
            </Link>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            to={unreadOnly ? "/dashboard/notifications" : "/dashboard/notifications?unread=1"}
            className="inline-flex min-h-11 items-center rounded-xl border border-slate-300 px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          >
            {unreadOnly ? "Show all" : "Show unread only"}
          </Link>
          {unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="all" value="1" />
              <Button type="submit" variant="outline">
                Mark all read
              </Button>
            </Form>
          ) : null}
        </div>
      </div>
      {notifications.length === 0 ? (
        <p className="rounded-card border border-slate-200 bg-white p-6 text-sm text-slate-600">
          {paged ? "No older notifications." : "No notifications yet."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white" data-testid="notifications">
          {notifications.map((item) => (
            <li key={item._id} className={cn("flex flex-wrap items-start justify-between gap-3 p-4", !item.readAt && "bg-brand-50/40")}>
              <div className="min-w-0">
                <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {NOTIFICATION_KIND_LABELS[item.kind]} · <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
                  {item.readAt ? null : <span className="ml-2 text-brand-700">Unread</span>}
                </p>
                <Link to={item.url} className="mt-1 block font-semibold break-words text-slate-900 underline-offset-4 hover:underline">
                  {item.title}
                </Link>
                {item.body ? <p className="mt-1 text-sm break-words text-slate-600">{item.body}</p> : null}
              </div>
              {item.readAt ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={item._id} />
                  <Button type="submit" variant="outline" size="sm">
                    Mark read<span className="sr-only">: {item.title}</span>
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {next ? (
        <Link
          to={`/dashboard/notifications?${new URLSearchParams({ ...(unreadOnly ? { unread: "1" } : {}), before: next }).toString()}`}
          className="font-semibold text-brand-700 underline-offset-4 hover:underline"
        >
          Older notifications
        </Link>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Notifications — BrandLift" }];
