import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { MessageTab } from "~/components/chat/message-tab";
import { supportRoomId } from "~/domain/chat";
import { requireIdentity } from "~/web/auth.server";
import { answerMessageForm, loadChatOnPage, threadKeyFor } from "~/web/chat-form.server";
import { loadOwnSubscription } from "~/web/guards.server";

/** The Message tab of a plan: the subscriber's support chat, the same thread as every service's, with or without JavaScript (decision 266). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, row } = await loadOwnSubscription(request, params.subscriptionId);
  const customerId = threadKeyFor(user, row.userId);
  return { customerId, currentUser: { id: user.id, name: user.name, role: user.role }, ...(await loadChatOnPage(supportRoomId(customerId), user, request)) };
}

/** A message from the tab's form; then the thread again. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user, row } = await loadOwnSubscription(request, params.subscriptionId);
  return answerMessageForm(await requireIdentity(request), request, supportRoomId(threadKeyFor(user, row.userId)));
}

export default function PlanMessage() {
  return <MessageTab chat={useLoaderData<typeof loader>()} refused={useActionData<typeof action>()} />;
}
