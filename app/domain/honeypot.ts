/**
 * The hidden field people never see and bots fill in. Every public form renders <HoneypotField />
 * (app/components/ui/honeypot.tsx) and its action calls checkHoneypot() (app/web/honeypot.server.ts):
 * both read this one name, so renaming it cannot switch the protection off on one side.
 */
export const HONEYPOT_FIELD = "website";
