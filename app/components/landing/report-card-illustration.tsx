import { ArrowRight, TrendingUp } from "lucide-react";

import { cn } from "~/components/ui/cn";

const grades = [
  { area: "Profile & bio", before: "C", after: "A", width: "w-[92%]" },
  { area: "Visual consistency", before: "C−", after: "A", width: "w-[88%]" },
  { area: "Posting rhythm", before: "D", after: "A−", width: "w-[84%]" },
  { area: "Engagement", before: "C", after: "A+", width: "w-[96%]" },
];

/** Decorative: a sample social media report card, before and after working with us. */
export function ReportCardIllustration({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={cn("relative select-none", className)}>
      <div className="rounded-card bg-white p-6 text-slate-900 shadow-lift sm:p-8">
        <div className="flex items-center justify-between gap-4">
          <div>
            <p className="text-xs font-semibold tracking-wider text-slate-600 uppercase">Sample report card</p>
            <p className="mt-1 text-lg font-bold text-slate-950">@yourbrand</p>
          </div>
          <div className="flex items-center gap-3">
            <span className="flex size-12 items-center justify-center rounded-full border-2 border-dashed border-slate-300 text-lg font-bold text-slate-600">
              C
            </span>
            <ArrowRight className="size-5 text-slate-600" />
            <span className="flex size-16 items-center justify-center rounded-full bg-brand-600 text-2xl font-extrabold text-white">A+</span>
          </div>
        </div>
        <ul className="mt-6 space-y-4">
          {grades.map((grade) => (
            <li key={grade.area}>
              <div className="flex items-baseline justify-between text-sm">
                <span className="font-medium text-slate-800">{grade.area}</span>
                <span className="font-semibold text-slate-600">
                  {grade.before} <span className="text-slate-600">→</span> <span className="text-brand-700">{grade.after}</span>
                </span>
              </div>
              <div className="mt-2 h-2 rounded-full bg-slate-100">
                <div className={cn("h-2 rounded-full bg-linear-to-r from-brand-500 to-accent-400", grade.width)} />
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div className="absolute -bottom-5 -left-3 flex items-center gap-3 rounded-2xl bg-white px-4 py-3 text-slate-900 shadow-lift sm:-left-8">
        <span className="flex size-9 items-center justify-center rounded-full bg-emerald-100 text-emerald-800">
          <TrendingUp className="size-5" />
        </span>
        <span className="text-sm leading-tight">
          <span className="block font-bold text-slate-950">Graded every month</span>
          <span className="text-slate-600">in your dashboard</span>
        </span>
      </div>
    </div>
  );
}
