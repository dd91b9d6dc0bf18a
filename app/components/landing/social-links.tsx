import type { ReactNode } from "react";

import { cn } from "~/components/ui/cn";

type SocialLink = { label: string; href: string; icon: ReactNode };

// Lucide dropped brand icons, so these are drawn here in the same 24px stroke style.
const socialLinks: SocialLink[] = [
  {
    label: "BrandLift on Instagram",
    href: "https://www.instagram.com/brandlift",
    icon: (
      <>
        <rect width="20" height="20" x="2" y="2" rx="5" />
        <circle cx="12" cy="12" r="4" />
        <path d="M17.5 6.5h.01" />
      </>
    ),
  },
  {
    label: "BrandLift on Facebook",
    href: "https://www.facebook.com/brandlift",
    icon: <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />,
  },
  {
    label: "BrandLift on LinkedIn",
    href: "https://www.linkedin.com/company/brandlift",
    icon: (
      <>
        <path d="M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6z" />
        <rect width="4" height="12" x="2" y="9" />
        <circle cx="4" cy="4" r="2" />
      </>
    ),
  },
  {
    label: "BrandLift on X",
    href: "https://x.com/brandlift",
    icon: (
      <>
        <path d="M4 4l11.7 16H20L8.3 4z" />
        <path d="M4 20l6.8-6.8M13.2 10.8 20 4" />
      </>
    ),
  },
  {
    label: "BrandLift on YouTube",
    href: "https://www.youtube.com/@brandlift",
    icon: (
      <>
        <path d="M2.5 17a24 24 0 0 1 0-10 2 2 0 0 1 1.4-1.4 49.6 49.6 0 0 1 16.2 0A2 2 0 0 1 21.5 7a24 24 0 0 1 0 10 2 2 0 0 1-1.4 1.4 49.6 49.6 0 0 1-16.2 0A2 2 0 0 1 2.5 17" />
        <path d="m10 15 5-3-5-3z" />
      </>
    ),
  },
];

export function SocialLinks({ className }: { className?: string }) {
  return (
    <ul className={cn("flex flex-wrap gap-2", className)}>
      {socialLinks.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            aria-label={link.label}
            target="_blank"
            rel="noopener noreferrer"
            className="flex size-12 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-700 transition-colors hover:border-brand-600 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <svg
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
              focusable="false"
              className="size-5"
            >
              {link.icon}
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
