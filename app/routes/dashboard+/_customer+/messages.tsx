import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { supportRoomId } from "~/domain/chat";
import { ROLE_REFUSED } from "~/domain/clients";
import { can, ownerKey } from "~/domain/permissions";
import { requireIdentity } from "~/web/auth.server";
import { answerMessageForm, loadChatOnPage } from "~/web/chat-form.server";

/**
 * /dashboard/messages (customers): their one support thread, whatever they bought — or nothing.
 * The Message tab of each service opens the same thread. Staff have the inbox instead. The thread
 * is read here and the message form posts here, so it works without JavaScript; with it, the
 * socket carries both (decision 266).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireIdentity(request);
  if (can(user, "inbox:manage")) throw redirect("/dashboard/inbox");
  if (!can(user, "chat:read-conversation", { ownerId: ownerKey(user) })) throw new Response(ROLE_REFUSED, { status: 403 });
  return {
    customerId: ownerKey(user),
    currentUser: { id: user.id, name: user.name, role: user.role },
    ...(await loadChatOnPage(supportRoomId(ownerKey(user)), user, request)),
  };
}

/** The message form: always the customer's own thread (the server decides, whatever the form says); then the thread again. */
export async function action({ request }: ActionFunctionArgs) {
  const identity = await requireIdentity(request);
  if (!can(identity.user, "area:customer")) throw new Response("Staff answer customers from the inbox.", { status: 403 });
  if (!can(identity.user, "chat:read-conversation", { ownerId: ownerKey(identity.user) })) throw new Response(ROLE_REFUSED, { status: 403 });
  return answerMessageForm(identity, request, supportRoomId(ownerKey(identity.user)));
}

export default function Messages() {
  const { customerId, currentUser, seenId, thread } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const location = useLocation();
  return (
    <section aria-labelledby="messages-heading" className="space-y-4">
      <div>
        <h2 id="messages-heading" className="text-xl font-bold text-slate-950">
          Messages
        </h2>
        <p className="text-sm text-slate-600">Ask us anything: one conversation with the whole BrandLift team.</p>
      </div>
      <ChatPanel
        customerId={customerId}
        currentUser={currentUser}
        seenId={seenId}
        page={{ thread, location, error: refused?.error ?? null, draft: refused?.draft }}
      />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Messages — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the dashboard" />;
}
