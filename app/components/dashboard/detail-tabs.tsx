import { ThreadUnreadCount } from "~/components/chat/unread-badge";
import { TabLinks } from "~/components/ui/tabs";

/**
 * The Reports | Message tabs of a service detail (customer) and a user detail (staff), each with
 * its own URL, and the thread's unread count on Message.
 */
export function DetailTabs(props: { label: string; base: string; customerId: string; unread: number; viewer: { id: string; role: "user" | "team" } }) {
  return (
    <TabLinks
      label={props.label}
      className="max-w-sm"
      items={[
        { to: props.base, label: "Reports", end: true },
        {
          to: `${props.base}/message`,
          // "unread", not "unread messages": the link's name should stay "Message …".
          label: (
            <>
              Message
              <ThreadUnreadCount customerId={props.customerId} initialCount={props.unread} viewer={props.viewer} label="unread" />
            </>
          ),
        },
      ]}
    />
  );
}
