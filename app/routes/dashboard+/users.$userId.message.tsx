import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { loadCustomer } from "~/web/guards.server";

/** The Message tab of a customer (staff): that customer's support thread. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  return { customerId: customer.id, currentUser: { id: staff.id, name: staff.name, role: staff.role } };
}

export default function UserMessage() {
  const { customerId, currentUser } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Message">
      <ChatPanel customerId={customerId} currentUser={currentUser} />
    </section>
  );
}
