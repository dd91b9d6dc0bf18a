import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { can } from "~/domain/permissions";
import { loadOwnSubscription, pageNotFound } from "~/web/guards.server";

/** The Message tab of a plan: the subscriber's support chat, the same thread as every service's. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, row } = await loadOwnSubscription(request, params.subscriptionId);
  // A billing member sees the plan but not the client's thread.
  if (!can(user, "chat:read-conversation", { ownerId: row.userId })) throw pageNotFound();
  return { customerId: row.userId ?? user.id, currentUser: { id: user.id, name: user.name, role: user.role } };
}

export default function PlanMessage() {
  const chat = useLoaderData<typeof loader>();
  return (
    <section aria-label="Message">
      <ChatPanel customerId={chat.customerId} currentUser={chat.currentUser} />
    </section>
  );
}
