import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { ChatPanel } from "~/components/chat/chat-panel";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { supportRoomId } from "~/domain/chat";
import { can } from "~/domain/permissions";
import { getOtherSideReceipt } from "~/models/inbox.server";
import { requireUser } from "~/web/auth.server";

/**
 * /dashboard/messages (customers): their one support thread, whatever they bought — or nothing.
 * The Message tab of each service opens the same thread. Staff have the inbox instead.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (can(user, "inbox:manage")) throw redirect("/dashboard/inbox");
  return { currentUser: { id: user.id, name: user.name, role: user.role }, seenId: await getOtherSideReceipt(supportRoomId(user.id), user) };
}

export default function Messages() {
  const { currentUser, seenId } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="messages-heading" className="space-y-4">
      <div>
        <h2 id="messages-heading" className="text-xl font-bold text-slate-950">
          Messages
        </h2>
        <p className="text-sm text-slate-600">Ask us anything: one conversation with the whole BrandLift team.</p>
      </div>
      <ChatPanel customerId={currentUser.id} currentUser={currentUser} seenId={seenId} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Messages — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the dashboard" />;
}
