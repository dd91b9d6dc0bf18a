import { Star } from "lucide-react";

import { cn } from "~/components/ui/cn";

type StarRatingProps = {
  rating: number;
  reviewCount?: number;
  className?: string;
};

const STARS = [1, 2, 3, 4, 5];

/** Five stars filled to the rating, read out as "Rated 4.8 out of 5". */
export function StarRating({ rating, reviewCount, className }: StarRatingProps) {
  const percent = `${Math.max(0, Math.min(rating / 5, 1)) * 100}%`;
  const reviews = reviewCount === undefined ? "" : `${reviewCount} ${reviewCount === 1 ? "review" : "reviews"}`;

  return (
    <p className={cn("flex items-center gap-2 text-sm", className)}>
      <span className="sr-only">
        Rated {rating} out of 5{reviews ? `, from ${reviews}` : ""}
      </span>
      <span aria-hidden="true" className="relative inline-flex">
        <span className="flex text-slate-300">
          {STARS.map((n) => (
            <Star key={n} className="size-4 fill-current" />
          ))}
        </span>
        <span className="absolute inset-y-0 left-0 flex overflow-hidden text-amber-500" style={{ width: percent }}>
          {STARS.map((n) => (
            <Star key={n} className="size-4 shrink-0 fill-current" />
          ))}
        </span>
      </span>
      <span aria-hidden="true" className="font-semibold text-slate-900">
        {rating.toFixed(1)}
        {reviews ? <span className="font-normal text-slate-600"> ({reviews})</span> : null}
      </span>
    </p>
  );
}
