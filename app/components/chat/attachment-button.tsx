import { Paperclip, X } from "lucide-react";
import { useRef, useState, type ChangeEvent } from "react";

import { ATTACHMENT_ACCEPT, checkAttachmentFile } from "~/domain/inbox";
import { CHAT_ERRORS, type SendResult } from "~/realtime/events";
import type { ClientSocket } from "~/realtime/use-socket";

interface Upload {
  name: string;
  progress: number;
  cancel: () => void;
}

/** POST /api/chat/attachments with upload progress; resolves with the attachment id, rejects on failure or cancel. */
function uploadAttachment(file: File, roomId: string, onProgress: (fraction: number) => void, signal: { cancel?: () => void }) {
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
      else reject(new Error(body?.message ?? "The file could not be sent. Please try again."));
    };
    xhr.onerror = () => reject(new Error("The file could not be sent. Please try again."));
    xhr.onabort = () => reject(new Error("cancelled"));
    signal.cancel = () => xhr.abort();
    xhr.send(form);
  });
}

/**
 * Attach an image, a PDF or a Word file: checked in the browser first (the server checks the content too),
 * uploaded with a progress bar and a Cancel button, then sent as a `file` message.
 */
export function AttachmentButton({
  socket,
  roomId,
  customerId,
  disabled,
  onError,
}: {
  socket: ClientSocket | null;
  roomId: string;
  customerId: string;
  disabled: boolean;
  onError: (message: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload | null>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file || !socket) return;
    const problem = checkAttachmentFile(file);
    if (problem) return onError(problem);
    onError(null);
    const signal: { cancel?: () => void } = {};
    setUpload({ name: file.name, progress: 0, cancel: () => signal.cancel?.() });
    try {
      const attachmentId = await uploadAttachment(file, roomId, (progress) => setUpload((u) => (u ? { ...u, progress } : u)), signal);
      const result: SendResult = await socket
        .timeout(10_000)
        .emitWithAck("supportMessage", { message: file.name, messageType: "file", attachmentId, supportRoomId: roomId, userId: customerId })
        .catch(() => ({ ok: false, error: CHAT_ERRORS.failed }) as const);
      if (!result.ok) onError(result.error);
    } catch (error) {
      if (error instanceof Error && error.message !== "cancelled") onError(error.message);
    } finally {
      setUpload(null);
    }
  }

  return (
    <>
      <input ref={input} type="file" accept={ATTACHMENT_ACCEPT} className="sr-only" tabIndex={-1} aria-label="Attach a file" onChange={onChange} />
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={disabled || !!upload}
        aria-label="Attach an image, PDF or Word file"
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-slate-100 disabled:opacity-50"
      >
        <Paperclip className="size-5" aria-hidden="true" />
      </button>
      {upload ? (
        <div
          role="status"
          className="absolute inset-x-3 -top-12 flex items-center gap-3 rounded-xl border border-slate-200 bg-white px-3 py-2 text-xs shadow-card"
        >
          <span className="min-w-0 flex-1">
            <span className="block truncate font-semibold text-slate-800">Sending {upload.name}</span>
            <progress className="mt-1 h-1.5 w-full accent-brand-600" max={1} value={upload.progress} aria-label={`Upload of ${upload.name}`} />
          </span>
          <button type="button" onClick={upload.cancel} className="inline-flex items-center gap-1 font-semibold text-slate-700 hover:text-red-700">
            <X className="size-4" aria-hidden="true" /> Cancel
          </button>
        </div>
      ) : null}
    </>
  );
}
