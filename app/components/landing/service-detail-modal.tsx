import { Check, ShoppingBag } from "lucide-react";

import { serviceArt } from "~/components/landing/service-art";
import { Button, buttonClassName } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { Tabs } from "~/components/ui/tabs";
import { useHydrated } from "~/components/ui/use-hydrated";
import { packageKey, type PackageView, type ShowcaseService } from "~/domain/catalogue";
import { formatCents } from "~/domain/format";

type ServiceDetailModalProps = {
  service: ShowcaseService | null;
  onClose: () => void;
  /** Called after the modal closes; without it, Order Now jumps to the a-la-carte picker. */
  onOrderNow?: (service: ShowcaseService, servicePackage: PackageView) => void;
};

export function ServiceDetailModal({ service, onClose, onOrderNow }: ServiceDetailModalProps) {
  // Without JavaScript the packages are listed one below the other (tabs need a script).
  const hydrated = useHydrated();
  const details = (servicePackage: PackageView) =>
    service ? (
      <PackageDetails
        servicePackage={servicePackage}
        orderKey={packageKey({ serviceSlug: service.slug, tier: servicePackage.tier })}
        onOrderNow={() => {
          onClose();
          onOrderNow?.(service, servicePackage);
        }}
        orderLinkOnly={!onOrderNow}
      />
    ) : null;
  const art = service ? serviceArt(service.slug) : null;
  return (
    <Modal open={service !== null} onClose={onClose} title={service?.name ?? ""} size="lg" closeHref="/#our-services">
      {service && art ? (
        <div className="space-y-5">
          <img
            src={art.image}
            alt={art.imageAlt}
            width={640}
            height={360}
            decoding="async"
            className="aspect-video w-full rounded-2xl bg-brand-50 object-cover"
          />
          <p className="text-base leading-relaxed text-slate-700">{service.description}</p>
          {hydrated ? (
            <Tabs
              key={service.slug}
              label="Packages"
              items={service.packages.map((servicePackage) => ({
                value: String(servicePackage.tier),
                label: servicePackage.name,
                content: details(servicePackage),
              }))}
            />
          ) : (
            <ul aria-label="Packages" className="space-y-4">
              {service.packages.map((servicePackage) => (
                <li key={servicePackage.tier}>{details(servicePackage)}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </Modal>
  );
}

function PackageDetails({
  servicePackage,
  orderKey,
  onOrderNow,
  orderLinkOnly,
}: {
  servicePackage: PackageView;
  orderKey: string;
  onOrderNow: () => void;
  orderLinkOnly: boolean;
}) {
  return (
    <div className="rounded-2xl border border-slate-200 p-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold text-slate-950">{servicePackage.name} package</h3>
          <p className="mt-1 text-sm text-slate-600">{servicePackage.description}</p>
        </div>
        <p className="text-3xl font-extrabold tracking-tight text-slate-950 tabular-nums">
          {formatCents(servicePackage.priceCents)}
          <span className="ml-1 text-sm font-medium text-slate-600">one-time</span>
        </p>
      </div>
      <ul className="mt-5 space-y-3">
        {servicePackage.features.map((feature) => (
          <li key={feature} className="flex gap-3 text-sm text-slate-700">
            <Check className="mt-0.5 size-4 shrink-0 text-brand-600" />
            {feature}
          </li>
        ))}
      </ul>
      {orderLinkOnly ? (
        <a href="#a-la-carte" onClick={onOrderNow} className={buttonClassName({ size: "lg", className: "mt-6 w-full" })}>
          <ShoppingBag className="size-5" />
          Order Now
        </a>
      ) : (
        // A GET form: without JavaScript Order Now loads /?package=<key>, which opens the order modal.
        <form
          method="get"
          action="/"
          onSubmit={(event) => {
            event.preventDefault();
            onOrderNow();
          }}
        >
          <input type="hidden" name="package" value={orderKey} />
          <Button type="submit" size="lg" className="mt-6 w-full">
            <ShoppingBag className="size-5" aria-hidden="true" />
            Order Now<span className="sr-only">: {servicePackage.name} package</span>
          </Button>
        </form>
      )}
    </div>
  );
}
