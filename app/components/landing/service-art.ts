import auditImage from "~/assets/service-audit.svg";
import contentImage from "~/assets/service-content.svg";
import strategyImage from "~/assets/service-strategy.svg";

/**
 * How an "Our Services" card looks: its picture, keyed by the service's slug. Names, texts and
 * prices come from the catalogue (the loader); a service staff add later gets the neutral strategy
 * picture. No star rating: we hold no reviews to count (decision 265).
 */
export interface ServiceArt {
  image: string;
  imageAlt: string;
}

const ART: Record<string, ServiceArt> = {
  "social-media-audit": {
    image: auditImage,
    imageAlt: "A profile scorecard with a letter grade and engagement charts",
  },
  "content-creation-kit": {
    image: contentImage,
    imageAlt: "A grid of branded social posts with a video play button",
  },
  "brand-strategy-session": {
    image: strategyImage,
    imageAlt: "A strategy board with a target, a colour palette and sticky notes",
  },
};

const FALLBACK: ServiceArt = { image: strategyImage, imageAlt: "" };

export function serviceArt(slug: string): ServiceArt {
  return ART[slug] ?? FALLBACK;
}
