import { FileText, Paperclip, X } from "lucide-react";
import { useEffect, useRef, useState, type ChangeEvent } from "react";

import { formatFileSize } from "~/domain/format";
import { ATTACHMENT_ACCEPT, ATTACHMENT_TYPES, attachmentKind, checkAttachmentFile, isImage } from "~/domain/inbox";
import { extensionOf } from "~/domain/report";

const UPLOAD_FAILED = "The file could not be sent. Please try again.";
export const UPLOAD_CANCELLED = "cancelled";

/** POST /api/chat/attachments with upload progress; resolves with the attachment id, rejects on failure or cancel. */
export function uploadAttachment(file: File, roomId: string, onProgress: (fraction: number) => void, signal: { cancel?: () => void }) {
  return new Promise<string>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append("roomId", roomId);
    form.append("file", file);
    xhr.open("POST", "/api/chat/attachments");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = (() => {
        try {
          return JSON.parse(xhr.responseText) as { data?: { attachment?: { _id: string } }; message?: string };
        } catch {
          return null;
        }
      })();
      if (xhr.status === 201 && body?.data?.attachment) resolve(body.data.attachment._id);
      else reject(new Error(body?.message ?? UPLOAD_FAILED));
    };
    xhr.onerror = () => reject(new Error(UPLOAD_FAILED));
    xhr.onabort = () => reject(new Error(UPLOAD_CANCELLED));
    signal.cancel = () => xhr.abort();
    xhr.send(form);
  });
}

/** The paperclip: picks one file, checked in the browser first (the server checks the content too). Nothing is sent yet. */
export function AttachmentButton({
  disabled,
  onPick,
  onError,
}: {
  disabled: boolean;
  onPick: (file: File) => void;
  onError: (message: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const problem = checkAttachmentFile(file);
    if (problem) return onError(problem);
    onError(null);
    onPick(file);
  }

  return (
    <>
      <input ref={input} type="file" accept={ATTACHMENT_ACCEPT} className="sr-only" tabIndex={-1} aria-label="Attach a file" onChange={onChange} />
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-label="Attach an image, PDF or Word file"
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-slate-100 disabled:opacity-50"
      >
        <Paperclip className="size-5" aria-hidden="true" />
      </button>
    </>
  );
}

/** A local preview of a picked image; the object URL is released when the preview goes. */
function useObjectUrl(file: File, wanted: boolean) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file, wanted]);
  return url;
}

/**
 * The picked file before it goes: a thumbnail for an image, its name, kind and size; Remove (or,
 * while it uploads, a progress bar and Cancel). The composer's text is its caption.
 */
export function AttachmentPreview({ file, progress, onRemove }: { file: File; progress: number | null; onRemove: () => void }) {
  const mimeType = ATTACHMENT_TYPES[extensionOf(file.name)] ?? file.type;
  const thumbnail = useObjectUrl(file, isImage(mimeType));
  const uploading = progress !== null;
  return (
    <div
      role="group"
      aria-label="File to send"
      data-testid="attachment-preview"
      className="mb-2 flex items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-2"
    >
      {thumbnail ? (
        <img
          src={thumbnail}
          alt=""
          data-testid="attachment-preview-image"
          className="size-14 shrink-0 rounded-lg border border-slate-200 bg-white object-cover"
        />
      ) : (
        <span className="inline-flex size-14 shrink-0 items-center justify-center rounded-lg border border-slate-200 bg-white">
          <FileText className="size-6 text-brand-700" aria-hidden="true" />
        </span>
      )}
      <span className="min-w-0 flex-1 text-sm">
        <span className="block truncate font-semibold text-slate-900">{file.name}</span>
        <span className="block text-xs text-slate-600">
          {attachmentKind(mimeType)} · {formatFileSize(file.size)}
        </span>
        {uploading ? <progress className="mt-1 h-1.5 w-full accent-brand-600" max={1} value={progress} aria-label={`Upload of ${file.name}`} /> : null}
      </span>
      <button
        type="button"
        onClick={onRemove}
        className="inline-flex min-h-10 shrink-0 items-center gap-1 rounded-xl px-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-red-700"
      >
        <X className="size-4" aria-hidden="true" /> {uploading ? "Cancel" : "Remove"}
        <span className="sr-only"> {file.name}</span>
      </button>
    </div>
  );
}
