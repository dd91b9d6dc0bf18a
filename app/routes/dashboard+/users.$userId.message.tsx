import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { isDeletedAccount } from "~/domain/own-data";
import { loadCustomer } from "~/web/guards.server";

/** The Message tab of a customer (staff): that customer's support thread; none for a deleted account. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  return { customerId: customer.id, deleted: isDeletedAccount(customer), currentUser: { id: staff.id, name: staff.name, role: staff.role } };
}

export default function UserMessage() {
  const { customerId, deleted, currentUser } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Message">
      {deleted ? (
        <p className="rounded-card border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-700">
          This customer deleted their account: the conversation was deleted with it, and nobody can read a new message.
        </p>
      ) : (
        <ChatPanel customerId={customerId} currentUser={currentUser} />
      )}
    </section>
  );
}
