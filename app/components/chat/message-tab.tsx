import { useLocation } from "@remix-run/react";

import { ChatPanel, type ChatPanelProps } from "~/components/chat/chat-panel";

/** What a Message tab's loader answers: the support thread's key, the viewer, and the thread as the page shows it. */
type MessageTabData = Pick<ChatPanelProps, "customerId" | "serviceId" | "serviceName" | "currentUser" | "seenId"> & {
  thread: ChatPanelProps["page"]["thread"];
};

/**
 * The Message tab of a plan and of a service: the customer's one support chat (a service's tab names
 * the service as its context). The page reads the thread and its form posts to the page, so it works
 * without JavaScript (decision 266); `refused` is the action's answer to a refused message.
 */
export function MessageTab({ chat, refused }: { chat: MessageTabData; refused?: { error?: string | null; draft?: string } }) {
  const location = useLocation();
  return (
    <section aria-label="Message">
      <ChatPanel
        customerId={chat.customerId}
        serviceId={chat.serviceId}
        serviceName={chat.serviceName}
        currentUser={chat.currentUser}
        seenId={chat.seenId}
        page={{ thread: chat.thread, location, error: refused?.error ?? null, draft: refused?.draft }}
      />
    </section>
  );
}
