import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ArrowLeft, UserRound } from "lucide-react";
import { useEffect, useState } from "react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { MessageList } from "~/components/chat/message-list";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { CustomerPane } from "~/components/inbox/customer-pane";
import { SavedReplyPicker } from "~/components/inbox/saved-reply-picker";
import { ThreadHeader } from "~/components/inbox/thread-header";
import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { Label, Textarea } from "~/components/ui/input";
import { MESSAGE_MAX_LENGTH } from "~/domain/chat";
import { fillReplyPlaceholders, latestThread, type Thread } from "~/domain/inbox";
import { noteSchema } from "~/domain/schemas/workspace";
import { controlCharacterMessage, hasControlCharacters, z } from "~/domain/zod";
import { getRoomMessages, markRead } from "~/models/chat.server";
import { replyToVisitor } from "~/models/contact.server";
import { getCustomerProfile } from "~/models/customer-profile.server";
import { findThreadRoom, getOtherSideReceipt, getThreadByRoom, listAssignableStaff, updateThread } from "~/models/inbox.server";
import { listSavedReplies } from "~/models/saved-replies.server";
import { addThreadNote } from "~/models/thread-notes.server";
import { useOptionalSocket } from "~/realtime/use-socket";
import { requireIdentity, requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { loadChatThreadPage, sendMessageForm } from "~/web/chat-form.server";
import { httpErrorInit, replyOnHttpError } from "~/web/form-reply.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/inbox/:customerId (team): one thread — the live conversation (a customer) or the
 * contact-form messages with a reply by e-mail (a visitor) — with its internal notes between the
 * messages, saved replies at the message box, and the customer beside it (one profile read:
 * models/customer-profile.server.ts). Close, reopen, assign, notes and the message box are forms
 * (no JS needed: a message posts here as multipart, decision 266; saved replies go in with
 * `?insert=`, their placeholders filled). Phones show the conversation, or with `?pane=customer` the customer.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const found = await findThreadRoom(params.customerId ?? "");
  if (!found) throw pageNotFound();
  const [thread, staffList, savedReplies, profile] = await Promise.all([
    getThreadByRoom(found.roomId),
    listAssignableStaff(),
    listSavedReplies(),
    found.customerId ? getCustomerProfile(found.customerId) : null,
  ]);
  // A visitor's thread has no live panel to mark it read: opening it does.
  if (!found.customerId) await markRead(staff.id, found.roomId);
  const visitorMessages = found.customerId ? [] : ((await getRoomMessages(found.roomId, {}, 100)) ?? []);
  const seenId = found.customerId ? await getOtherSideReceipt(found.roomId, staff) : null;
  const chat = found.customerId ? await loadChatThreadPage(found.roomId, request) : null;
  // The message box without JavaScript: `?insert=<saved reply>` fills it, for this customer.
  const insert = new URL(request.url).searchParams.get("insert");
  const saved = savedReplies.find((r) => r.id === insert)?.body;
  const draft = saved ? fillReplyPlaceholders(saved, found.person) : "";
  return {
    key: params.customerId!,
    roomId: found.roomId,
    customerId: found.customerId,
    thread,
    profile,
    visitorMessages,
    chat,
    person: found.person,
    seenId,
    staffList,
    savedReplies,
    draft,
    currentUser: { id: staff.id, name: staff.name, role: staff.role },
  };
}

/**
 * The thread's plain forms, one schema per button (decision 305). The e-mail reply's own checks run
 * after its saved-reply placeholders are filled, on the text that is sent.
 */
const threadForm = z.discriminatedUnion(
  "intent",
  [
    // Anything but "closed" opens the conversation again.
    z.object({ intent: z.literal("status"), status: z.string().max(20).optional() }),
    // "me", a team member's id, or empty: unassigned (an unknown one is refused by the model).
    z.object({ intent: z.literal("assign"), assigneeId: z.string().max(100).optional() }),
    noteSchema.extend({ intent: z.literal("note") }),
    z.object({
      intent: z.literal("reply"),
      message: z
        .string()
        .max(MESSAGE_MAX_LENGTH * 2)
        .optional(),
    }),
  ],
  { error: "Unknown action." },
);

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const key = params.customerId ?? "";
  const here = new URL(request.url);
  // The message box is the one multipart form here (it may carry a file), read as it streams in.
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) return sendReply(request, key, here);
  const submission = parseWithZod(await readForm(request), { schema: threadForm });
  const back = `${here.pathname}${here.search}`;
  const posted = submission.payload.intent;
  if (submission.status !== "success") {
    // A note without words, an e-mail reply too long to read: said on that form; anything else goes back to the thread.
    if (posted === "note") return data({ intent: "note" as const, result: submission.reply() }, { status: 400 });
    if (posted === "reply") return data({ intent: "reply" as const, result: submission.reply() }, { status: 400 });
    throw redirect(back);
  }
  const value = submission.value;
  if (value.intent === "status") {
    const status = value.status === "closed" ? "closed" : "open";
    await updateThread(staff, key, { status }).catch(rethrowAsPage);
    return redirectWithToast(back, { type: "success", message: status === "closed" ? "Conversation closed." : "Conversation reopened." });
  }
  if (value.intent === "assign") {
    const assigneeId = value.assigneeId === "me" ? staff.id : value.assigneeId || null;
    // An assignee who is no (longer an active) team member: the form says so, with a 400.
    const refused = await replyOnHttpError(
      () => updateThread(staff, key, { assigneeId }).catch(rethrowAsPage),
      (error) => data({ intent: "assign" as const, result: submission.reply({ formErrors: [error.message] }) }, httpErrorInit(error)),
    );
    if (refused) return refused;
    return redirectWithToast(back, { type: "success", message: assigneeId ? "Conversation assigned." : "Conversation unassigned." });
  }
  if (value.intent === "note") {
    // Notes belong to customer threads; a visitor's thread id is no customer (404).
    await addThreadNote(staff, key, value.body).catch(rethrowAsPage);
    return redirectWithToast(back, { type: "success", message: "Note added. Only the team sees it." });
  }
  // Saved-reply placeholders are filled for the visitor, never sent as written.
  const person = (await findThreadRoom(key))?.person ?? { name: null, email: null };
  const text = fillReplyPlaceholders((value.message ?? "").trim(), person);
  const refuse = (message: string) => ({ intent: "reply" as const, result: submission.reply({ fieldErrors: { message: [message] } }) });
  if (!text) return refuse("Message cannot be empty.");
  if (text.length > MESSAGE_MAX_LENGTH) return refuse(`Message must be at most ${MESSAGE_MAX_LENGTH.toLocaleString("en-US")} characters.`);
  if (hasControlCharacters(text.replace(/[\n\t\r]/g, ""))) return refuse(controlCharacterMessage("The message"));
  try {
    await replyToVisitor(key, staff, text);
  } catch (error) {
    if (error instanceof Response || (error as { status?: number }).status === 404) throw pageNotFound();
    return {
      intent: "reply" as const,
      result: submission.reply({ formErrors: ["Your reply was saved, but the e-mail could not be sent. Please try again later."] }),
    };
  }
  // The saved reply put in the box (`?insert=`) is sent: the page comes back with an empty box.
  here.searchParams.delete("insert");
  return redirectWithToast(`${here.pathname}${here.search}`, { type: "success", message: "Reply sent by e-mail." });
}

/** Every error of a refused form, in one line (the thread's forms live in shared components that show one message). */
function refusalOf(reply: unknown, intent: string): string | null {
  if (!reply || typeof reply !== "object" || !("result" in reply) || (reply as { intent?: string }).intent !== intent) return null;
  const errors = (reply as { result: SubmissionResult<string[]> }).result.error ?? {};
  return (
    Object.values(errors)
      .flatMap((messages) => messages ?? [])
      .join(" ") || null
  );
}

/** A message in a customer's thread from the page's form: placeholders filled, then the thread again (without the saved reply put in). */
async function sendReply(request: Request, key: string, here: URL) {
  const found = await findThreadRoom(key);
  // A visitor has no live thread: their answer goes by e-mail (intent "reply").
  if (!found?.customerId) throw pageNotFound();
  const refused = await sendMessageForm(await requireIdentity(request), request, found.roomId, { fill: (text) => fillReplyPlaceholders(text, found.person) });
  if (refused) return data({ intent: "message" as const, error: refused.error, draft: refused.text }, { status: refused.status });
  here.searchParams.delete("insert");
  here.searchParams.delete("before");
  return redirect(`${here.pathname}${here.search}`);
}

function rethrowAsPage(error: unknown): never {
  if ((error as { status?: number }).status === 404) throw pageNotFound();
  throw error;
}

/** The thread's status and assignee, kept live: a colleague's change shows at once. */
function useLiveThread(initial: Thread | null, roomId: string) {
  const { socket } = useOptionalSocket() ?? { socket: null };
  const [thread, setThread] = useState(initial);
  // Page data and live updates come by two roads: whichever copy is older never replaces the newer.
  useEffect(() => setThread((current) => latestThread(current, initial)), [initial]);
  useEffect(() => {
    if (!socket) return;
    const onThread = (t: Thread) => {
      if (t.roomId === roomId) setThread((current) => latestThread(current, t));
    };
    socket.on("threadUpdated", onThread);
    return () => {
      socket.off("threadUpdated", onThread);
    };
  }, [socket, roomId]);
  return thread;
}

/** The same page with `pane` set (phones: the customer) or removed (the conversation). */
function usePaneLink(pane: "customer" | null) {
  const params = new URLSearchParams(useLocation().search);
  if (pane) params.set("pane", pane);
  else params.delete("pane");
  const s = params.toString();
  return s ? `?${s}` : "?";
}

export default function InboxThread() {
  const data = useLoaderData<typeof loader>();
  const thread = useLiveThread(data.thread, data.roomId);
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const customerPane = new URLSearchParams(location.search).get("pane") === "customer" && !!data.profile;
  const toCustomer = usePaneLink("customer");
  const toConversation = usePaneLink(null);
  const listLink = `/dashboard/inbox${toConversation === "?" ? "" : toConversation}`;
  const phoneLink = "inline-flex min-h-11 items-center gap-2 rounded-full px-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 lg:hidden";
  return (
    <div className="grid h-full min-h-0 grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-[minmax(0,1fr)_13rem] xl:grid-cols-[minmax(0,1fr)_16rem] 2xl:grid-cols-[minmax(0,1fr)_20rem]">
      <div className={cn("flex min-h-0 min-w-0 flex-col gap-3", customerPane && "max-lg:hidden")}>
        <nav aria-label="Inbox panes" className="-my-1 flex flex-wrap justify-between gap-2 lg:hidden">
          <Link to={listLink} className={phoneLink}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            All conversations
          </Link>
          {data.profile ? (
            <Link to={toCustomer} className={phoneLink}>
              <UserRound className="size-4" aria-hidden="true" />
              Customer details
            </Link>
          ) : null}
        </nav>
        <ThreadHeader thread={thread} staffList={data.staffList} currentUserId={data.currentUser.id} error={refusalOf(actionData, "assign")} />
        {data.customerId && data.chat ? (
          <ChatPanel
            customerId={data.customerId}
            currentUser={data.currentUser}
            seenId={data.seenId}
            notes={data.profile?.notes}
            className="h-[70dvh] lg:h-auto lg:min-h-0 lg:flex-1"
            page={{
              thread: data.chat,
              location,
              error: actionData?.intent === "message" ? actionData.error : null,
              draft: actionData?.intent === "message" ? actionData.draft : data.draft,
            }}
            composerTools={(insert) => <SavedReplyPicker id="chat-saved-reply" replies={data.savedReplies} person={data.person} withoutJs onInsert={insert} />}
          />
        ) : (
          <VisitorConversation messages={data.visitorMessages} currentUserId={data.currentUser.id} />
        )}
      </div>
      {data.profile ? (
        <aside aria-label="Customer" className={cn("min-h-0 min-w-0 lg:overflow-y-auto", !customerPane && "max-lg:hidden")}>
          <Link to={toConversation} className={cn(phoneLink, "mb-2")}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to the conversation
          </Link>
          <CustomerPane profile={data.profile} noteError={refusalOf(actionData, "note")} />
        </aside>
      ) : (
        <aside aria-label="Visitor" className="min-w-0 text-sm max-lg:hidden">
          <p className="rounded-2xl border border-slate-200 bg-white p-4 text-slate-600">
            A visitor from the contact form: no account yet, so no purchases, plan or notes.
          </p>
        </aside>
      )}
    </div>
  );
}

/** A contact-form visitor's messages and the reply by e-mail (a form: no JavaScript needed). */
function VisitorConversation({
  messages,
  currentUserId,
}: {
  messages: ReturnType<typeof useLoaderData<typeof loader>>["visitorMessages"];
  currentUserId: string;
}) {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [text, setText] = useState(data.draft);
  // A sent reply (one more message) empties the box.
  useEffect(() => setText(data.draft), [data.draft, messages.length]);
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "reply";
  return (
    <section aria-label="Visitor conversation" className="flex min-h-0 flex-1 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4">
      <div role="log" aria-label="Conversation" tabIndex={0} className="min-h-0 flex-1 overflow-y-auto">
        <MessageList messages={messages} currentUserId={currentUserId} hasEarlier={false} onLoadEarlier={() => {}} />
      </div>
      <SavedReplyPicker
        id="visitor-saved-reply"
        replies={data.savedReplies}
        person={data.person}
        withoutJs
        onInsert={(body) => setText((t) => (t.trim() ? `${t.trimEnd()}\n\n${body}` : body))}
      />
      <Form method="post" className="space-y-2">
        <input type="hidden" name="intent" value="reply" />
        <Label htmlFor="visitor-reply">Reply by e-mail</Label>
        <Textarea
          id="visitor-reply"
          name="message"
          rows={3}
          maxLength={MESSAGE_MAX_LENGTH}
          required
          data-composer=""
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {refusalOf(actionData, "reply") ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {refusalOf(actionData, "reply")}
          </p>
        ) : null}
        <Button type="submit" loading={sending}>
          Send reply
        </Button>
      </Form>
    </section>
  );
}

/** A detail page: on phones the dashboard layout leaves out its overview and chart, so the page's own content comes first. */
export const handle = { detail: true, workspace: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.thread?.customer.name ?? "Conversation"} — Inbox — BrandLift` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/inbox" backLabel="Back to the inbox" />;
}
