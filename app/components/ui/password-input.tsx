import { Eye, EyeOff } from "lucide-react";
import { forwardRef, useId, useState, type InputHTMLAttributes } from "react";

import { cn } from "~/components/ui/cn";
import { Input } from "~/components/ui/input";
import { useHydrated } from "~/components/ui/use-hydrated";

export type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type">;

/**
 * A password field with a show/hide toggle. The toggle only appears once JavaScript runs,
 * so without it this is a plain password input.
 */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { className, id, autoComplete = "current-password", ...props },
  ref,
) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);

  return (
    <div className="relative">
      <Input
        ref={ref}
        id={inputId}
        type={visible ? "text" : "password"}
        autoComplete={autoComplete}
        spellCheck={false}
        className={cn("pr-12", className)}
        {...props}
      />
      {hydrated ? (
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? "Hide password" : "Show password"}
          aria-controls={inputId}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-xl text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
        >
          {visible ? <EyeOff className="size-5" /> : <Eye className="size-5" />}
        </button>
      ) : null}
    </div>
  );
});
