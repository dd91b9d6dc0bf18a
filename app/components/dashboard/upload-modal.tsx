import { Link } from "@remix-run/react";
import { UploadCloud } from "lucide-react";
import { useRef, useState, type DragEvent, type FormEvent } from "react";

import { Button, buttonClassName } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { Field, FieldError, Input, Textarea } from "~/components/ui/input";
import { Modal } from "~/components/ui/modal";
import { notify } from "~/components/ui/toaster";
import { formatFileSize } from "~/domain/format";
import { checkReportFile, REPORT_ACCEPT, UPLOAD_MESSAGES } from "~/domain/report";

type Props = {
  serviceId: string;
  serviceName: string;
  userId: string;
  purchaseId: string;
  /** The API the file goes to with JavaScript (default: the service's upload route). */
  uploadUrl?: string;
  /** Where the plain (no-JavaScript) form posts, and where closing the modal goes. */
  action: string;
  closeTo: string;
  /** The server's answer to a plain form post that failed: one message, or one per field. */
  serverError?: string | null;
  serverFields?: { title?: string; file?: string };
  onClose: () => void;
  onUploaded: () => void;
};

type Errors = { title?: string; file?: string; form?: string };

/**
 * The spec's upload modal. Without JavaScript it is a multipart form posting to the page's
 * action. With it, the same fields are checked here first and sent with XMLHttpRequest to the
 * API, which reports upload progress for the bar.
 */
export function UploadReportModal({
  serviceId,
  serviceName,
  userId,
  purchaseId,
  uploadUrl,
  action,
  closeTo,
  serverError,
  serverFields,
  onClose,
  onUploaded,
}: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>(() => ({ ...serverFields }));
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const uploading = progress !== null;

  function choose(next: File | null) {
    setFile(next);
    setErrors((e) => ({ ...e, file: next ? checkReportFile(next) : undefined, form: undefined }));
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files;
    if (!dropped.length || !fileInput.current) return;
    fileInput.current.files = dropped;
    choose(dropped[0]);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading) return;
    const form = new FormData(event.currentTarget);
    const title = String(form.get("title") ?? "").trim();
    const description = String(form.get("description") ?? "").trim();
    const chosen = fileInput.current?.files?.[0] ?? null;
    const next: Errors = {
      title: title ? undefined : UPLOAD_MESSAGES.title,
      file: chosen ? checkReportFile(chosen) : UPLOAD_MESSAGES.file,
    };
    setErrors(next);
    if (next.title || next.file || !chosen) return;

    const body = new FormData();
    body.append("report", chosen);
    body.append("title", title);
    if (description) body.append("description", description);
    body.append("userId", userId);
    body.append("purchaseId", purchaseId);

    const xhr = new XMLHttpRequest();
    xhr.open("POST", uploadUrl ?? `/api/reports/service/${serviceId}/upload`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      setProgress(null);
      if (xhr.status === 201) {
        void notify("success", "Report uploaded successfully!");
        onUploaded();
        return;
      }
      const message = (xhr.response as { message?: string } | null)?.message;
      setErrors({ form: message || "Failed to upload report" });
    };
    xhr.onerror = () => {
      setProgress(null);
      setErrors({ form: "An error occurred while uploading the report" });
    };
    setProgress(0);
    xhr.send(body);
  }

  const formError = errors.form ?? serverError ?? undefined;
  return (
    <Modal open onClose={uploading ? () => {} : onClose} title="Upload Report" description={`For ${serviceName}`} closeHref={closeTo}>
      <form method="post" action={action} encType="multipart/form-data" noValidate onSubmit={onSubmit} className="space-y-5">
        <input type="hidden" name="userId" value={userId} />
        <input type="hidden" name="purchaseId" value={purchaseId} />
        <Field label="Report title" error={errors.title}>
          {(control) => <Input {...control} name="title" autoComplete="off" maxLength={200} disabled={uploading} />}
        </Field>
        <Field label="Description (optional)">{(control) => <Textarea {...control} name="description" rows={3} maxLength={2000} disabled={uploading} />}</Field>
        <div className="space-y-1.5">
          <label htmlFor="report-file" className="block text-sm font-semibold text-slate-800">
            File
          </label>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="dropzone"
            className={cn(
              "flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors",
              dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50",
            )}
          >
            <UploadCloud className="size-8 text-brand-700" aria-hidden="true" />
            <p className="text-sm text-slate-700">Drag and drop a file here, or choose one.</p>
            <input
              ref={fileInput}
              id="report-file"
              type="file"
              name="report"
              accept={REPORT_ACCEPT}
              disabled={uploading}
              aria-invalid={errors.file ? true : undefined}
              aria-describedby="report-file-hint report-file-error"
              onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
              className="max-w-full text-sm text-slate-700 file:mr-3 file:rounded-full file:border-0 file:bg-brand-600 file:px-4 file:py-2 file:font-semibold file:text-white"
            />
            <p id="report-file-hint" className="text-xs text-slate-600">
              PDF, DOC, DOCX, JPEG or PNG, up to 10MB.
              {file ? ` Selected: ${file.name} (${formatFileSize(file.size)})` : ""}
            </p>
          </div>
          <FieldError id="report-file-error" errors={errors.file} />
        </div>
        {uploading ? (
          <div className="space-y-1">
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="h-2 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${progress}%` }} />
            </div>
            <p className="text-sm text-slate-600">Uploading… {progress}%</p>
          </div>
        ) : null}
        <FieldError id="upload-form-error" errors={formError} />
        <div className="flex justify-end gap-3">
          <Link to={closeTo} preventScrollReset className={buttonClassName({ variant: "ghost" })} onClick={(e) => (uploading ? e.preventDefault() : undefined)}>
            Cancel
          </Link>
          <Button type="submit" loading={uploading}>
            {uploading ? "Uploading..." : "Upload"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
