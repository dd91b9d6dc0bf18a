import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { loadOwnPurchase } from "~/web/guards.server";

/** The Message tab: the customer's support chat, with this service as its context. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, purchase } = await loadOwnPurchase(request, params.purchaseId);
  return {
    customerId: purchase.userId ?? user.id,
    serviceId: purchase.serviceId,
    serviceName: purchase.view.service.name,
    currentUser: { id: user.id, name: user.name, role: user.role },
  };
}

export default function ServiceMessage() {
  const chat = useLoaderData<typeof loader>();
  return (
    <section aria-label="Message">
      <ChatPanel customerId={chat.customerId} serviceId={chat.serviceId} serviceName={chat.serviceName} currentUser={chat.currentUser} />
    </section>
  );
}
