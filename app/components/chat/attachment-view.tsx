import { FileText } from "lucide-react";
import { useState } from "react";

import { attachmentPath, type ChatAttachment } from "~/domain/chat";
import { formatFileSize } from "~/domain/format";
import { attachmentKind, isImage } from "~/domain/inbox";

/**
 * An image as a thumbnail that opens full size; anything else as a file chip that downloads. Both
 * use the attachment's stable address, which checks the session on every request: a page left
 * open keeps working (docs/decisions/180).
 */
export function AttachmentView({ attachment, own }: { attachment: ChatAttachment; own: boolean }) {
  const [failed, setFailed] = useState(false);
  const href = attachmentPath(attachment._id);

  if (isImage(attachment.mimeType) && !failed) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-2xl border border-slate-200 bg-slate-50">
        <img
          src={href}
          alt={attachment.fileName}
          data-testid="attachment-thumbnail"
          onError={() => setFailed(true)}
          className="max-h-48 max-w-full object-contain sm:max-w-60"
        />
      </a>
    );
  }
  return (
    <a
      href={href}
      data-testid="attachment-chip"
      className={`flex max-w-full items-center gap-3 rounded-2xl border px-3 py-2 text-sm ${own ? "border-brand-200 bg-brand-50" : "border-slate-200 bg-white"}`}
    >
      <FileText className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
      <span className="min-w-0">
        <span className="block truncate font-semibold text-slate-900">{attachment.fileName}</span>
        <span className="block text-xs text-slate-600">
          {failed ? "Could not be loaded" : `${attachmentKind(attachment.mimeType)} · ${formatFileSize(attachment.fileSize)}`}
        </span>
      </span>
    </a>
  );
}
