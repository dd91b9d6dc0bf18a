import auditImage from "~/assets/service-audit.svg";
import contentImage from "~/assets/service-content.svg";
import strategyImage from "~/assets/service-strategy.svg";

/**
 * How an "Our Services" card looks: its picture and star rating, keyed by the service's slug.
 * Names, texts and prices come from the catalogue (the loader); a service staff add later gets
 * the neutral strategy picture and no rating.
 */
export interface ServiceArt {
  image: string;
  imageAlt: string;
  rating?: number;
  reviewCount?: number;
}

const ART: Record<string, ServiceArt> = {
  "social-media-audit": {
    image: auditImage,
    imageAlt: "A profile scorecard with a letter grade and engagement charts",
    rating: 4.8,
    reviewCount: 126,
  },
  "content-creation-kit": {
    image: contentImage,
    imageAlt: "A grid of branded social posts with a video play button",
    rating: 4.9,
    reviewCount: 98,
  },
  "brand-strategy-session": {
    image: strategyImage,
    imageAlt: "A strategy board with a target, a colour palette and sticky notes",
    rating: 4.7,
    reviewCount: 74,
  },
};

const FALLBACK: ServiceArt = { image: strategyImage, imageAlt: "" };

export function serviceArt(slug: string): ServiceArt {
  return ART[slug] ?? FALLBACK;
}
