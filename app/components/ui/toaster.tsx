import { Toaster as SonnerToaster } from "sonner";

/** Spec: toasts appear top-right on a dark theme and close automatically after 2 seconds. */
export const TOAST_DURATION_MS = 2000;

export function Toaster() {
  return <SonnerToaster position="top-right" theme="dark" duration={TOAST_DURATION_MS} richColors closeButton />;
}
