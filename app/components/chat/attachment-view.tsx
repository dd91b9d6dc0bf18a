import { FileText } from "lucide-react";
import { useEffect, useState, type MouseEvent } from "react";

import type { ChatAttachment } from "~/domain/chat";
import { isImage } from "~/domain/inbox";

/** Signed links last five minutes: fetched when shown, kept a little less than that. */
const links = new Map<string, { url: string; until: number }>();

async function signedLink(attachmentId: string): Promise<string> {
  const cached = links.get(attachmentId);
  if (cached && cached.until > Date.now()) return cached.url;
  const response = await fetch(`/api/chat/attachments/${attachmentId}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = (await response.json().catch(() => null)) as { data?: { downloadUrl?: string } } | null;
  const url = body?.data?.downloadUrl;
  if (!response.ok || !url) throw new Error(`attachment link: ${response.status}`);
  links.set(attachmentId, { url, until: Date.now() + 4 * 60 * 1000 });
  return url;
}

export function formatFileSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An image as a thumbnail that opens full size; anything else as a file chip that downloads. */
export function AttachmentView({ attachment, own }: { attachment: ChatAttachment; own: boolean }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const image = isImage(attachment.mimeType);

  useEffect(() => {
    if (!image) return;
    let live = true;
    signedLink(attachment._id).then(
      (link) => live && setUrl(link),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [attachment._id, image]);

  async function open(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    try {
      window.open(await signedLink(attachment._id), "_blank", "noopener");
    } catch {
      setFailed(true);
    }
  }

  if (image && url) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" onClick={open} className="block overflow-hidden rounded-2xl border border-slate-200 bg-slate-50">
        <img src={url} alt={attachment.fileName} data-testid="attachment-thumbnail" className="max-h-48 max-w-60 object-contain" />
      </a>
    );
  }
  return (
    <a
      href={`/api/chat/attachments/${attachment._id}`}
      onClick={open}
      data-testid="attachment-chip"
      className={`flex items-center gap-3 rounded-2xl border px-3 py-2 text-sm ${own ? "border-brand-200 bg-brand-50" : "border-slate-200 bg-white"}`}
    >
      <FileText className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
      <span className="min-w-0">
        <span className="block truncate font-semibold text-slate-900">{attachment.fileName}</span>
        <span className="block text-xs text-slate-600">
          {failed ? "Could not be loaded" : `${attachment.mimeType === "application/pdf" ? "PDF" : "Image"} · ${formatFileSize(attachment.fileSize)}`}
        </span>
      </span>
    </a>
  );
}
