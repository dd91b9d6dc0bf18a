import { useLocation } from "@remix-run/react";
import { AlertTriangle, CheckCircle2, Info, X } from "lucide-react";
import { useState, type MouseEvent } from "react";

import { cn } from "~/components/ui/cn";
import type { ToastKind } from "~/components/ui/toaster";

export interface Flash {
  id: string;
  type: ToastKind;
  message: string;
}

const tone: Record<ToastKind, { className: string; Icon: typeof Info }> = {
  success: { className: "border-emerald-300 bg-emerald-50 text-emerald-950", Icon: CheckCircle2 },
  error: { className: "border-red-300 bg-red-50 text-red-950", Icon: AlertTriangle },
  info: { className: "border-sky-300 bg-sky-50 text-sky-950", Icon: Info },
  message: { className: "border-slate-300 bg-white text-slate-950", Icon: Info },
};

/**
 * What an action's redirect wants to say ("Password changed."), drawn by the server on the page
 * that follows, so it is there without JavaScript (decision 281). It stays until dismissed or until
 * the next navigation: a revalidation on the same page (a fetcher, a retry) keeps it. Dismiss is a
 * link to this page (the flash is read once, so the page comes back without it); with JavaScript
 * it only hides the banner.
 */
export function FlashBanner({ flash }: { flash: Flash | null }) {
  const location = useLocation();
  const [shown, setShown] = useState<{ flash: Flash | null; at: string; dismissed: boolean }>({ flash, at: location.key, dismissed: false });
  let next = shown;
  if (flash && flash.id !== shown.flash?.id) next = { flash, at: location.key, dismissed: false };
  else if (!flash && shown.flash && location.key !== shown.at) next = { flash: null, at: location.key, dismissed: false };
  if (next !== shown) setShown(next);
  if (!next.flash || next.dismissed) return null;
  const { className, Icon } = tone[next.flash.type];
  const dismiss = (event: MouseEvent) => {
    event.preventDefault();
    setShown({ ...next, dismissed: true });
  };
  return (
    <aside aria-label="Notification" className="px-4 pt-3 sm:px-6">
      <div
        role="status"
        data-flash={next.flash.type}
        className={cn("mx-auto flex max-w-3xl items-start gap-3 rounded-xl border px-4 py-3 text-sm font-medium shadow-card", className)}
      >
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p className="min-w-0 flex-1 break-words">{next.flash.message}</p>
        <a
          href={`${location.pathname}${location.search}`}
          onClick={dismiss}
          className="-my-1 inline-flex min-h-8 shrink-0 items-center gap-1 rounded-full px-2 font-semibold underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-current"
        >
          <X aria-hidden="true" className="size-4" />
          Dismiss
        </a>
      </div>
    </aside>
  );
}
