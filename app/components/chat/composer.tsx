import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";

import { Button } from "~/components/ui/button";
import { Paperclip, SendHorizontal } from "~/components/ui/icons";
import { Textarea } from "~/components/ui/input";
import { useHydrated } from "~/components/ui/use-hydrated";
import { MESSAGE_MAX_LENGTH } from "~/domain/chat";
import { ATTACHMENT_ACCEPT } from "~/domain/inbox";

import { AttachmentButton, AttachmentPreview, UPLOAD_CANCELLED, uploadAttachment } from "./attachment-button";

/** Enter sends; Shift+Enter is a new line; a key that finishes an IME composition is not a send. */
function sendsOnKey(event: Pick<KeyboardEvent, "key" | "shiftKey" | "nativeEvent">): boolean {
  return event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing;
}

/**
 * The message box under a conversation: a textarea that grows with its text (Enter sends,
 * Shift+Enter adds a line), the paperclip, and Send. A picked file waits in a preview (its text is
 * the caption) until Send; Remove drops it, Cancel stops its upload.
 *
 * It is a plain multipart form posting to `action` (the page, whose action sends it: decision 266),
 * so it works before and without JavaScript, with a file field of its own; once the page runs,
 * the submit is taken over and goes by the socket (the upload first), and sending waits for the
 * connection.
 */
export function Composer({
  roomId,
  connected,
  error,
  send,
  onTyped,
  tools,
  action,
  initialText = "",
}: {
  roomId: string;
  connected: boolean;
  error: string | null;
  /** Text, or a caption with an uploaded file's id; resolves whether it was stored. */
  send: (text: string, attachmentId?: string) => Promise<boolean>;
  onTyped: () => void;
  /** Staff tools above the box (saved replies); `insert` adds text to the draft. */
  tools?: (insert: (text: string) => void) => ReactNode;
  /** Where the form posts without JavaScript. */
  action?: string;
  /** The box's text as the page came (a saved reply put in without JavaScript, a refused message's text). */
  initialText?: string;
}) {
  const hydrated = useHydrated();
  const [text, setText] = useState(initialText);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const cancelUpload = useRef<(() => void) | null>(null);
  const message = text.trim();
  const ready = connected && !sending && (message.length > 0 || file !== null);

  async function sendFile(picked: File, caption: string): Promise<boolean> {
    const signal: { cancel?: () => void } = {};
    cancelUpload.current = () => signal.cancel?.();
    setProgress(0);
    try {
      const attachmentId = await uploadAttachment(picked, roomId, setProgress, signal);
      return await send(caption, attachmentId);
    } catch (failure) {
      if (failure instanceof Error && failure.message !== UPLOAD_CANCELLED) setFileError(failure.message);
      return false;
    } finally {
      cancelUpload.current = null;
      setProgress(null);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready) return;
    setSending(true);
    setFileError(null);
    const stored = file ? await sendFile(file, message) : await send(message);
    setSending(false);
    if (stored) {
      setText("");
      setFile(null);
    }
    box.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (sendsOnKey(event)) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    } else if (event.key === "Escape" && file && progress === null) {
      setFile(null);
    }
  }

  function removeFile() {
    if (cancelUpload.current) cancelUpload.current();
    else setFile(null);
    box.current?.focus();
  }

  const shownError = fileError ?? error;
  // Before the page runs (or without JavaScript) the browser posts the form itself: nothing waits for the socket.
  const live = hydrated;
  return (
    <div className="border-t border-slate-200 p-3">
      {shownError ? (
        <p role="alert" className="mb-2 text-sm font-medium text-red-700">
          {shownError}
        </p>
      ) : null}
      {/* Outside the message form: the saved-reply picker is a form of its own without JavaScript. */}
      {tools?.((inserted) => {
        setText((draft) => (draft.trim() ? `${draft.trimEnd()}\n\n${inserted}` : inserted));
        box.current?.focus();
      })}
      {file ? <AttachmentPreview file={file} progress={progress} onRemove={removeFile} /> : null}
      <form method="post" encType="multipart/form-data" action={action} onSubmit={onSubmit} aria-label="Write a message">
        {live ? null : (
          <label className="mb-2 flex flex-wrap items-center gap-2 text-xs font-semibold text-slate-700">
            <Paperclip className="size-4" aria-hidden="true" />
            <span>Attach a file</span>
            <input
              type="file"
              name="file"
              accept={ATTACHMENT_ACCEPT}
              className="min-w-0 text-xs font-normal file:mr-2 file:rounded-lg file:border-0 file:bg-slate-100 file:px-2 file:py-1.5 file:text-xs file:font-semibold"
            />
          </label>
        )}
        <div className="flex items-end gap-2">
          {live ? (
            <AttachmentButton
              disabled={!connected || sending}
              onPick={(picked) => {
                setFile(picked);
                box.current?.focus();
              }}
              onError={setFileError}
            />
          ) : null}
          <Textarea
            name="message"
            ref={box}
            rows={1}
            aria-label={file ? "Caption" : "Message"}
            data-composer=""
            placeholder={file ? "Caption (optional)" : "Type Message Here"}
            value={text}
            maxLength={MESSAGE_MAX_LENGTH}
            enterKeyHint="send"
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value.trim()) onTyped();
            }}
            onKeyDown={onKeyDown}
            disabled={live && !connected}
            autoComplete="off"
            aria-describedby={hintId}
            className="max-h-40 min-h-11 resize-none py-2 field-sizing-content"
          />
          <Button type="submit" aria-label={file ? "Send file" : "Send message"} disabled={live && !ready} loading={sending} className="shrink-0">
            <SendHorizontal aria-hidden className="size-4" />
            <span className="sr-only sm:not-sr-only">Send</span>
          </Button>
        </div>
        <p id={hintId} className="sr-only">
          {live ? "Enter sends; Shift+Enter starts a new line." : "Send posts the message, with the file when one is attached."}
        </p>
      </form>
    </div>
  );
}
