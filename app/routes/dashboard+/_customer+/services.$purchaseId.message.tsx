import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { MessageTab } from "~/components/chat/message-tab";
import { supportRoomId } from "~/domain/chat";
import { requireIdentity } from "~/web/auth.server";
import { answerMessageForm, loadChatOnPage, threadKeyFor } from "~/web/chat-form.server";
import { loadOwnPurchase } from "~/web/guards.server";

/**
 * The Message tab: the support chat, with this service as its context. The thread is read here and
 * the tab's form posts here, so it works without JavaScript (decision 266).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, purchase } = await loadOwnPurchase(request, params.purchaseId);
  const customerId = threadKeyFor(user, purchase.userId);
  return {
    customerId,
    serviceId: purchase.serviceId,
    serviceName: purchase.view.service.name,
    currentUser: { id: user.id, name: user.name, role: user.role },
    ...(await loadChatOnPage(supportRoomId(customerId), user, request)),
  };
}

/** A message about this service from the tab's form; then the thread again. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user, purchase } = await loadOwnPurchase(request, params.purchaseId);
  const room = supportRoomId(threadKeyFor(user, purchase.userId));
  return answerMessageForm(await requireIdentity(request), request, room, { serviceId: purchase.serviceId });
}

export default function ServiceMessage() {
  return <MessageTab chat={useLoaderData<typeof loader>()} refused={useActionData<typeof action>()} />;
}
