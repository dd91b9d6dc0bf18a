import { clsx, type ClassValue } from "clsx";
import { extendTailwindMerge } from "tailwind-merge";

// Our custom font sizes (text-display, text-headline) would otherwise be read as text colours and dropped.
const twMerge = extendTailwindMerge({
  extend: { theme: { text: ["display", "headline"] } },
});

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
