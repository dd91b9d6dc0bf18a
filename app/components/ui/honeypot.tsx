import { HONEYPOT_FIELD } from "~/domain/honeypot";

/** A field people never see and bots fill in; actions call `checkHoneypot()` (app/web/honeypot.server.ts). */
export function HoneypotField({ id = "website" }: { id?: string }) {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] h-px w-px overflow-hidden opacity-0">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
