import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { supportRoomId } from "~/domain/chat";
import { isDeletedAccount } from "~/domain/own-data";
import { requireIdentity } from "~/web/auth.server";
import { answerMessageForm, loadChatOnPage } from "~/web/chat-form.server";
import { loadCustomer, pageNotFound } from "~/web/guards.server";

/**
 * The Message tab of a customer (staff): that customer's support thread, read here and answered by
 * this page's form, so it works without JavaScript (decision 266); none for a deleted account.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const currentUser = { id: staff.id, name: staff.name, role: staff.role };
  if (isDeletedAccount(customer)) return { customerId: customer.id, deleted: true as const, currentUser, chat: null };
  return { customerId: customer.id, deleted: false as const, currentUser, chat: await loadChatOnPage(supportRoomId(customer.id), staff, request) };
}

/** A message to this customer from the tab's form; then the thread again. A deleted account takes none. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { customer } = await loadCustomer(request, params.userId);
  if (isDeletedAccount(customer)) throw pageNotFound();
  return answerMessageForm(await requireIdentity(request), request, supportRoomId(customer.id));
}

export default function UserMessage() {
  const { customerId, deleted, currentUser, chat } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const location = useLocation();
  return (
    <section aria-label="Message">
      {deleted || !chat ? (
        <p className="rounded-card border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-700">
          This customer deleted their account: the conversation was deleted with it, and nobody can read a new message.
        </p>
      ) : (
        <ChatPanel
          customerId={customerId}
          currentUser={currentUser}
          seenId={chat.seenId}
          page={{ thread: chat.thread, location, error: refused?.error ?? null, draft: refused?.draft }}
        />
      )}
    </section>
  );
}
