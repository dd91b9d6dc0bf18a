/**
 * A field people never see and bots fill in. Public forms render <HoneypotField />; their actions
 * call `checkHoneypot()` (app/utils/honeypot.server.ts).
 */
export const HONEYPOT_FIELD = "website";

export function HoneypotField({ id = "website" }: { id?: string }) {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] h-px w-px overflow-hidden opacity-0">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
