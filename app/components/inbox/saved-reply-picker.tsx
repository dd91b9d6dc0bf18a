import { Form, useLocation } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { fillReplyPlaceholders, type SavedReply } from "~/domain/inbox";

const selectClass = "block h-9 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * The team's saved replies at the message box, their placeholders ({name} …) filled in for
 * `person`. With JavaScript, choosing one adds its text to the draft; without it a GET form
 * reloads the page with the reply in the box (`?insert=`, filled by the loader), when `withoutJs` is set.
 */
export function SavedReplyPicker({
  replies,
  person,
  onInsert,
  withoutJs = false,
  id,
}: {
  replies: SavedReply[];
  /** Whom the reply is for: its placeholders' values. */
  person: { name: string | null; email: string | null };
  onInsert: (text: string) => void;
  withoutJs?: boolean;
  id: string;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  if (replies.length === 0) return null;
  if (!hydrated) {
    if (!withoutJs) return null;
    const kept = [...new URLSearchParams(location.search)].filter(([key]) => key !== "insert");
    return (
      <Form method="get" className="mb-2 flex items-center gap-2">
        {kept.map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <label htmlFor={id} className="shrink-0 text-xs font-semibold text-slate-700">
          Saved reply
        </label>
        <select id={id} name="insert" className={selectClass} defaultValue="">
          <option value="" disabled>
            Choose…
          </option>
          {replies.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
        <Button type="submit" size="sm" variant="outline">
          Insert
        </Button>
      </Form>
    );
  }
  return (
    <div className="mb-2 flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-xs font-semibold text-slate-700">
        Saved reply
      </label>
      <select
        id={id}
        className={selectClass}
        value=""
        onChange={(event) => {
          const reply = replies.find((r) => r.id === event.target.value);
          if (reply) onInsert(fillReplyPlaceholders(reply.body, person));
        }}
      >
        <option value="" disabled>
          Insert a saved reply…
        </option>
        {replies.map((r) => (
          <option key={r.id} value={r.id}>
            {r.title}
          </option>
        ))}
      </select>
    </div>
  );
}
