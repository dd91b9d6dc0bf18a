import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Mail } from "lucide-react";
import { useEffect, useState } from "react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { MessageList } from "~/components/chat/message-list";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Badge, StatusBadge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label, Textarea } from "~/components/ui/input";
import { MESSAGE_MAX_LENGTH } from "~/domain/chat";
import { formatMoney } from "~/domain/format";
import type { Thread } from "~/domain/inbox";
import { formatDate } from "~/domain/purchase";
import { controlCharacterMessage, hasControlCharacters } from "~/domain/zod";
import { getRoomMessages, markRead } from "~/models/chat.server";
import {
  findThreadRoom,
  getCustomerContext,
  getOtherSideReceipt,
  getThreadByRoom,
  listAssignableStaff,
  replyToVisitor,
  updateThread,
} from "~/models/inbox.server";
import { useOptionalSocket } from "~/realtime/use-socket";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit, replyOnHttpError } from "~/web/form-reply.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/inbox/:customerId (team): one thread — the live conversation (a customer) or the
 * contact-form messages with a reply by e-mail (a visitor) — beside the customer's purchases,
 * plan and reports; close or reopen it, assign it to oneself or a colleague (forms: no JS needed).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const found = await findThreadRoom(params.customerId ?? "");
  if (!found) throw pageNotFound();
  const [thread, staffList] = await Promise.all([getThreadByRoom(found.roomId), listAssignableStaff()]);
  const customer = found.customerId ? await getCustomerContext(found.customerId) : null;
  // A visitor's thread has no live panel to mark it read: opening it does.
  if (!found.customerId) await markRead(staff.id, found.roomId);
  const visitorMessages = found.customerId ? [] : ((await getRoomMessages(found.roomId, {}, 100)) ?? []);
  const seenId = found.customerId ? await getOtherSideReceipt(found.roomId, staff) : null;
  return {
    key: params.customerId!,
    roomId: found.roomId,
    customerId: found.customerId,
    thread,
    customer,
    visitorMessages,
    seenId,
    staffList,
    currentUser: { id: staff.id, name: staff.name, role: staff.role },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const key = params.customerId ?? "";
  const form = await readForm(request);
  const intent = form.get("intent");
  const here = new URL(request.url);
  const back = `${here.pathname}${here.search}`;
  if (intent === "status") {
    const status = form.get("status") === "closed" ? "closed" : "open";
    await updateThread(key, { status }).catch(rethrowAsPage);
    return redirectWithToast(back, { type: "success", message: status === "closed" ? "Conversation closed." : "Conversation reopened." });
  }
  if (intent === "assign") {
    const raw = String(form.get("assigneeId") ?? "");
    const assigneeId = raw === "me" ? staff.id : raw || null;
    // An assignee who is no (longer an active) team member: the form says so, with a 400.
    const refused = await replyOnHttpError(
      () => updateThread(key, { assigneeId }).catch(rethrowAsPage),
      (error) => data({ intent: "assign" as const, error: error.message }, httpErrorInit(error)),
    );
    if (refused) return refused;
    return redirectWithToast(back, { type: "success", message: assigneeId ? "Conversation assigned." : "Conversation unassigned." });
  }
  if (intent === "reply") {
    const text = String(form.get("message") ?? "").trim();
    if (!text) return { intent: "reply" as const, error: "Message cannot be empty." };
    if (text.length > MESSAGE_MAX_LENGTH)
      return { intent: "reply" as const, error: `Message must be at most ${MESSAGE_MAX_LENGTH.toLocaleString("en-US")} characters.` };
    if (hasControlCharacters(text.replace(/[\n\t\r]/g, ""))) return { intent: "reply" as const, error: controlCharacterMessage("The message") };
    try {
      await replyToVisitor(key, staff, text);
    } catch (error) {
      if (error instanceof Response || (error as { status?: number }).status === 404) throw pageNotFound();
      return { intent: "reply" as const, error: "Your reply was saved, but the e-mail could not be sent. Please try again later." };
    }
    return redirectWithToast(back, { type: "success", message: "Reply sent by e-mail." });
  }
  throw redirect(back);
}

function rethrowAsPage(error: unknown): never {
  if ((error as { status?: number }).status === 404) throw pageNotFound();
  throw error;
}

/** The thread's status and assignee, kept live: a colleague's change shows at once. */
function useLiveThread(initial: Thread | null, roomId: string) {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [thread, setThread] = useState(initial);
  useEffect(() => setThread(initial), [initial]);
  useEffect(() => {
    if (!socket) return;
    const onThread = (t: Thread) => {
      if (t.roomId === roomId) setThread(t);
    };
    socket.on("threadUpdated", onThread);
    return () => {
      socket.off("threadUpdated", onThread);
    };
  }, [socket, roomId]);
  return thread;
}

export default function InboxThread() {
  const data = useLoaderData<typeof loader>();
  const thread = useLiveThread(data.thread, data.roomId);
  const navigation = useNavigation();
  const actionData = useActionData<typeof action>();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const status = thread?.status ?? "open";
  const person = thread?.customer;
  return (
    <div className="space-y-4">
      <header className="rounded-card border border-slate-200 bg-white p-4 shadow-card">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="text-lg font-bold break-words text-slate-950">{person?.name ?? "Conversation"}</h3>
            {person?.email ? (
              <p className="flex items-center gap-2 text-sm break-all text-slate-600">
                <Mail className="size-4 shrink-0" aria-hidden="true" />
                {person.email}
              </p>
            ) : null}
            <p className="mt-2 flex flex-wrap gap-1.5">
              <Badge data-testid="thread-status" tone={status === "open" ? "success" : "neutral"}>
                {status === "open" ? "Open" : "Closed"}
              </Badge>
              {thread?.kind === "visitor" ? <Badge tone="info">Visitor · contact form · address not verified · replies go by e-mail</Badge> : null}
              <Badge data-testid="thread-assignee" tone={thread?.assignee ? "brand" : "warning"}>
                {thread?.assignee ? `Assigned to ${thread.assignee.name}` : "Unassigned"}
              </Badge>
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            {thread?.assignee?._id !== data.currentUser.id ? (
              <Form method="post">
                <input type="hidden" name="intent" value="assign" />
                <input type="hidden" name="assigneeId" value="me" />
                <Button type="submit" size="sm" variant="outline" loading={busy("assign")}>
                  Assign to me
                </Button>
              </Form>
            ) : null}
            <Form method="post" className="flex items-end gap-2" key={thread?.assignee?._id ?? "none"}>
              <input type="hidden" name="intent" value="assign" />
              <div>
                <Label htmlFor="assignee" className="text-xs">
                  Assignee
                </Label>
                <select
                  id="assignee"
                  name="assigneeId"
                  defaultValue={thread?.assignee?._id ?? ""}
                  className="block h-9 rounded-xl border border-slate-300 bg-white px-2 text-sm"
                >
                  <option value="">Unassigned</option>
                  {data.staffList.map((s) => (
                    <option key={s._id} value={s._id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="submit" size="sm" variant="outline">
                Assign
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="status" value={status === "open" ? "closed" : "open"} />
              <Button type="submit" size="sm" variant={status === "open" ? "secondary" : "primary"} loading={busy("status")}>
                {status === "open" ? "Close conversation" : "Reopen conversation"}
              </Button>
            </Form>
          </div>
        </div>
        {actionData?.intent === "assign" ? (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700">
            {actionData.error}
          </p>
        ) : null}
      </header>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 2xl:grid-cols-[minmax(0,1fr)_18rem]">
        {data.customerId ? (
          <ChatPanel customerId={data.customerId} currentUser={data.currentUser} seenId={data.seenId} />
        ) : (
          <section aria-label="Visitor conversation" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4">
            <MessageList messages={data.visitorMessages} currentUserId={data.currentUser.id} hasEarlier={false} onLoadEarlier={() => {}} />
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="reply" />
              <Label htmlFor="visitor-reply">Reply by e-mail</Label>
              <Textarea id="visitor-reply" name="message" rows={4} maxLength={MESSAGE_MAX_LENGTH} required />
              {actionData?.intent === "reply" ? (
                <p role="alert" className="text-sm font-medium text-red-700">
                  {actionData.error}
                </p>
              ) : null}
              <Button type="submit" loading={busy("reply")}>
                Send reply
              </Button>
            </Form>
          </section>
        )}
        {data.customer ? (
          <aside aria-label="Customer" className="space-y-4 text-sm">
            <section className="rounded-2xl border border-slate-200 bg-white p-4">
              <h4 className="font-semibold text-slate-950">Plan</h4>
              <p className="mt-1 text-slate-700">{data.customer.plan ? `${data.customer.plan.key.toUpperCase()} · ${data.customer.plan.status}` : "No plan"}</p>
            </section>
            <section className="rounded-2xl border border-slate-200 bg-white p-4">
              <h4 className="font-semibold text-slate-950">Purchases</h4>
              {data.customer.purchases.length === 0 ? (
                <p className="mt-1 text-slate-600">No purchases yet.</p>
              ) : (
                <ul className="mt-2 space-y-2">
                  {data.customer.purchases.map((p) => (
                    <li key={p._id} className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{p.service.name}</span>
                      <span className="flex items-center gap-2">
                        <span className="tabular-nums text-slate-700">{formatMoney(p.amount, p.currency)}</span>
                        <StatusBadge status={p.status} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="rounded-2xl border border-slate-200 bg-white p-4">
              <h4 className="font-semibold text-slate-950">Reports</h4>
              {data.customer.reports.length === 0 ? (
                <p className="mt-1 text-slate-600">No reports yet.</p>
              ) : (
                <ul className="mt-2 space-y-1">
                  {data.customer.reports.map((r) => (
                    <li key={r._id}>
                      <span className="font-medium text-slate-900">{r.title}</span> <span className="text-slate-600">· {formatDate(r.createdAt)}</span>
                    </li>
                  ))}
                </ul>
              )}
              {data.customerId ? (
                <Link to={`/dashboard/users/${data.customerId}`} className="mt-3 inline-block font-semibold text-brand-700 hover:underline">
                  Open the customer
                </Link>
              ) : null}
            </section>
          </aside>
        ) : null}
      </div>
    </div>
  );
}

/** A detail page: on phones the dashboard layout leaves out its overview and chart, so the page's own content comes first. */
export const handle = { detail: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.thread?.customer.name ?? "Conversation"} — Inbox — BrandLift` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/inbox" backLabel="Back to the inbox" />;
}
