import { FileImage, FileText, FileType2 } from "lucide-react";

import { cn } from "~/components/ui/cn";

const kinds = {
  pdf: { icon: FileText, label: "PDF", tone: "bg-red-50 text-red-700" },
  word: { icon: FileType2, label: "Word document", tone: "bg-sky-50 text-sky-700" },
  image: { icon: FileImage, label: "Image", tone: "bg-emerald-50 text-emerald-700" },
} as const;

function kindOf(mimeType: string) {
  if (mimeType === "application/pdf") return kinds.pdf;
  if (mimeType.startsWith("image/")) return kinds.image;
  return kinds.word;
}

/** The report's file type at a glance, with its name for screen readers. */
export function FileIcon({ mimeType, className }: { mimeType: string; className?: string }) {
  const kind = kindOf(mimeType);
  const Icon = kind.icon;
  return (
    <span className={cn("flex size-12 shrink-0 items-center justify-center rounded-2xl", kind.tone, className)}>
      <Icon className="size-6" aria-hidden="true" />
      <span className="sr-only">{kind.label}</span>
    </span>
  );
}
