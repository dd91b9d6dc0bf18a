import { Form, useNavigation } from "@remix-run/react";
import { Mail } from "lucide-react";

import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/input";
import type { Thread } from "~/domain/inbox";

/**
 * The open thread's top line: who, its status and assignee, and the forms that change them
 * (no JavaScript needed). `data-shortcut` marks the buttons the `e` and `a` keys press.
 */
export function ThreadHeader({
  thread,
  staffList,
  currentUserId,
  error,
}: {
  thread: Thread | null;
  staffList: { id: string; name: string }[];
  currentUserId: string;
  error?: string | null;
}) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const status = thread?.status ?? "open";
  const person = thread?.customer;
  return (
    <header className="rounded-card border border-slate-200 bg-white px-4 py-3 shadow-card">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <h3 className="text-lg font-bold break-words text-slate-950" data-testid="thread-client">
            {thread?.client?.name ?? person?.name ?? "Conversation"}
          </h3>
          {person?.email ? (
            <p className="flex items-center gap-2 text-sm break-all text-slate-600">
              <Mail className="size-4 shrink-0" aria-hidden="true" />
              {person.email}
            </p>
          ) : null}
          <p className="mt-1.5 flex flex-wrap gap-1.5">
            <Badge data-testid="thread-status" tone={status === "open" ? "success" : "neutral"}>
              {status === "open" ? "Open" : "Closed"}
            </Badge>
            {thread?.kind === "visitor" ? <Badge tone="info">Visitor · contact form · address not verified · replies go by e-mail</Badge> : null}
            <Badge data-testid="thread-assignee" tone={thread?.assignee ? "brand" : "warning"}>
              {thread?.assignee ? `Assigned to ${thread.assignee.name}` : "Unassigned"}
            </Badge>
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {thread?.assignee?._id !== currentUserId ? (
            <Form method="post">
              <input type="hidden" name="intent" value="assign" />
              <input type="hidden" name="assigneeId" value="me" />
              <Button type="submit" size="sm" variant="outline" loading={busy("assign")} data-shortcut="assign-me" aria-keyshortcuts="a">
                Assign to me
              </Button>
            </Form>
          ) : null}
          <Form method="post" className="flex items-end gap-2" key={thread?.assignee?._id ?? "none"}>
            <input type="hidden" name="intent" value="assign" />
            <div>
              <Label htmlFor="assignee" className="text-xs">
                Assignee
              </Label>
              <select
                id="assignee"
                name="assigneeId"
                defaultValue={thread?.assignee?._id ?? ""}
                className="block h-9 max-w-40 rounded-xl border border-slate-300 bg-white px-2 text-sm"
              >
                <option value="">Unassigned</option>
                {staffList.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" size="sm" variant="outline">
              Assign
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="status" />
            <input type="hidden" name="status" value={status === "open" ? "closed" : "open"} />
            <Button
              type="submit"
              size="sm"
              variant={status === "open" ? "secondary" : "primary"}
              loading={busy("status")}
              data-shortcut="status"
              aria-keyshortcuts="e"
            >
              {status === "open" ? "Close conversation" : "Reopen conversation"}
            </Button>
          </Form>
        </div>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </header>
  );
}
