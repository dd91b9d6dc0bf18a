import { Link, type LinkProps } from "@remix-run/react";
import { forwardRef, type ButtonHTMLAttributes } from "react";

import { cn } from "~/components/ui/cn";
import { Spinner } from "~/components/ui/spinner";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "danger";
export type ButtonSize = "sm" | "md" | "lg";

/**
 * Shape, focus ring and disabled look (`.btn`), colours (`.btn-<variant>`) and size (`.btn-<size>`):
 * component classes in tailwind.css, three short names in the page where each button named some 100
 * bytes of utilities (decisions 297 and 325). A `className`'s utilities still win over them.
 */
export function buttonClassName({ variant = "primary", size = "md", className }: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn("btn", `btn-${variant}`, `btn-${size}`, className);
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
