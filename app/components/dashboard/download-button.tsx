import { useState, type MouseEvent } from "react";

import { buttonClassName } from "~/components/ui/button";
import { Download } from "~/components/ui/icons";
import { Spinner } from "~/components/ui/spinner";
import { notify } from "~/components/ui/toaster";

/**
 * Without JavaScript a plain link to the file (the session cookie proves who asks). With it, the
 * spec's flow: ask the API for a short-lived signed link, follow it, and say how it went.
 */
export function DownloadButton({ reportId, title }: { reportId: string; title: string }) {
  const [busy, setBusy] = useState(false);

  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch(`/api/reports/${reportId}/download`, { headers: { Accept: "application/json" } });
      const body = (await response.json().catch(() => null)) as { data?: { downloadUrl?: string; fileName?: string } } | null;
      const url = body?.data?.downloadUrl;
      if (!response.ok || !url) throw new Error("no link");
      const link = document.createElement("a");
      link.href = url;
      link.download = body?.data?.fileName ?? "";
      document.body.append(link);
      link.click();
      link.remove();
      void notify("success", "Report downloaded successfully!");
    } catch {
      void notify("error", "Failed to download report");
    } finally {
      setBusy(false);
    }
  }

  return (
    <a
      href={`/files/reports/${reportId}`}
      download
      onClick={onClick}
      aria-busy={busy || undefined}
      aria-label={`Download ${title}`}
      className={buttonClassName({ variant: "outline", size: "sm" })}
    >
      {busy ? <Spinner /> : <Download className="size-4" aria-hidden="true" />}
      Download
    </a>
  );
}
