import { lazy, startTransition, Suspense, useEffect, useState } from "react";

/** Spec: toasts appear top-right on a dark theme and close automatically after 2 seconds. */
export const TOAST_DURATION_MS = 2000;

export type ToastKind = "success" | "error" | "info" | "message";

/*
 * sonner is loaded on the first toast, not with every page: most visits (the landing page
 * above all) never show one, and its 10 KB would sit on their critical path.
 */
const SonnerToaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

let wanted = false;
let mount: (() => void) | null = null;
let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => (markReady = resolve));

function Ready() {
  useEffect(() => markReady(), []);
  return null;
}

export function Toaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    // A transition: the lazy toaster may suspend while its chunk loads. As an urgent update (a
    // sign-in's toast arrives while the page still hydrates) it could land in React's synchronous
    // re-render of the root, where suspending is React 18's error #345 (decision 263).
    const show = () => startTransition(() => setMounted(true));
    mount = show;
    if (wanted) show();
    return () => {
      mount = null;
    };
  }, []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster position="top-right" theme="dark" duration={TOAST_DURATION_MS} richColors closeButton />
      <Ready />
    </Suspense>
  );
}

/** Shows a toast, mounting the toaster first if this is the page's first one. */
export async function notify(kind: ToastKind, message: string, options: { id?: string } = {}) {
  wanted = true;
  mount?.();
  const [{ toast }] = await Promise.all([import("sonner"), ready]);
  (kind === "message" ? toast : toast[kind])(message, options);
}
