import { Link, type LinkProps } from "@remix-run/react";
import { forwardRef, type ButtonHTMLAttributes } from "react";

import { cn } from "~/components/ui/cn";
import { Spinner } from "~/components/ui/spinner";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "danger";
export type ButtonSize = "sm" | "md" | "lg";

/** Shape, focus ring and disabled look: `.btn` in tailwind.css, one class in the page for what every button shares. */
const base = "btn";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 active:bg-brand-800 disabled:hover:bg-brand-600",
  secondary: "bg-accent-400 text-slate-950 shadow-sm hover:bg-accent-300 active:bg-accent-500 disabled:hover:bg-accent-400",
  outline: "border border-slate-300 bg-white text-slate-900 hover:border-brand-600 hover:text-brand-700",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-950",
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 active:bg-red-900 disabled:hover:bg-red-700",
};

const sizes: Record<ButtonSize, string> = {
  sm: "min-h-10 px-4 text-sm",
  md: "min-h-11 px-5 text-sm",
  lg: "min-h-12 px-7 text-base",
};

export function buttonClassName({ variant = "primary", size = "md", className }: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn(base, variants[variant], sizes[size], className);
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button, e.g. while its form submits. */
  loading?: boolean;
};

/**
 * A native <button>. Like HTML, it submits its form unless `type="button"` is given,
 * so `<Button name="intent" value="x">` works in a form without JavaScript.
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, loading = false, disabled, className, children, ...props },
  ref,
) {
  return (
    <button ref={ref} disabled={disabled || loading} aria-busy={loading || undefined} className={buttonClassName({ variant, size, className })} {...props}>
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
});

export type ButtonLinkProps = LinkProps & { variant?: ButtonVariant; size?: ButtonSize };

/** A Remix <Link> that looks like a button. */
export const ButtonLink = forwardRef<HTMLAnchorElement, ButtonLinkProps>(function ButtonLink({ variant, size, className, ...props }, ref) {
  return <Link ref={ref} className={buttonClassName({ variant, size, className })} {...props} />;
});
