import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

import { cn } from "~/components/ui/cn";

/** The text controls' look, one class (app/styles/tailwind.css) instead of some 450 bytes of utilities on every field. */
const control = "form-control";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = "text", ...props }, ref) {
  return <input ref={ref} type={type} className={cn(control, "min-h-11 py-2", className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, rows = 4, ...props }, ref) {
  return <textarea ref={ref} rows={rows} className={cn(control, "py-3", className)} {...props} />;
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
  return <select ref={ref} className={cn(control, "min-h-11 py-2", className)} {...props} />;
});

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn("block text-sm font-semibold text-slate-800", className)} {...props} />;
}

export type FieldErrors = string | readonly string[] | null | undefined;

export function errorText(errors: FieldErrors): string | undefined {
  const text = typeof errors === "string" ? errors : errors?.filter(Boolean).join(" ");
  return text ? text : undefined;
}

export function FieldError({ id, errors, className }: { id: string; errors: FieldErrors; className?: string }) {
  const text = errorText(errors);
  if (!text) return null;
  return (
    <p id={id} role="alert" className={cn("text-sm font-medium text-red-700", className)}>
      {text}
    </p>
  );
}

export type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

type FieldProps = {
  label: ReactNode;
  error?: FieldErrors;
  hint?: ReactNode;
  /** Defaults to a generated id; it is handed to the control when `children` is a function. */
  id?: string;
  className?: string;
  /** Either the control itself (give it the same `id`) or a function receiving its wiring props. */
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
};

/** Label, control, hint and error, wired together with id / aria-describedby. */
export function Field({ label, error, hint, id, className, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const hasError = Boolean(errorText(error));
  const describedBy = [hint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control: FieldControlProps = {
    id: controlId,
    "aria-invalid": hasError || undefined,
    "aria-describedby": describedBy,
  };

  return (
    <div className={cn("space-y-1.5", className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {typeof children === "function" ? children(control) : children}
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} errors={error} />
    </div>
  );
}
