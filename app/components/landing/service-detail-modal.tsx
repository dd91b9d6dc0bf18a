import { Check, ShoppingBag } from "lucide-react";
import type { SampleService, ServicePackage } from "~/components/landing/sample-services";
import { Button, buttonClassName } from "~/components/ui/button";
import { formatMoney } from "~/components/ui/file-size";
import { Modal } from "~/components/ui/modal";
import { StarRating } from "~/components/ui/star-rating";
import { Tabs } from "~/components/ui/tabs";

type ServiceDetailModalProps = {
  service: SampleService | null;
  onClose: () => void;
  /** Called after the modal closes; without it, Order Now jumps to the a-la-carte picker. */
  onOrderNow?: (service: SampleService, servicePackage: ServicePackage) => void;
};

export function ServiceDetailModal({ service, onClose, onOrderNow }: ServiceDetailModalProps) {
  return (
    <Modal open={service !== null} onClose={onClose} title={service?.title ?? ""} size="lg">
      {service ? (
        <div className="space-y-5">
          <img
            src={service.image}
            alt={service.imageAlt}
            width={640}
            height={360}
            decoding="async"
            className="aspect-video w-full rounded-2xl bg-brand-50 object-cover"
          />
          <StarRating rating={service.rating} reviewCount={service.reviewCount} />
          <p className="text-base leading-relaxed text-slate-700">{service.description}</p>
          <Tabs
            key={service.id}
            label="Packages"
            items={service.packages.map((servicePackage) => ({
              value: servicePackage.name.toLowerCase(),
              label: servicePackage.name,
              content: (
                <PackageDetails
                  servicePackage={servicePackage}
                  onOrderNow={() => {
                    onClose();
                    onOrderNow?.(service, servicePackage);
                  }}
                  orderLinkOnly={!onOrderNow}
                />
              ),
            }))}
          />
        </div>
      ) : null}
    </Modal>
  );
}

function PackageDetails({
  servicePackage,
  onOrderNow,
  orderLinkOnly,
}: {
  servicePackage: ServicePackage;
  onOrderNow: () => void;
  orderLinkOnly: boolean;
}) {
  return (
    <div className="rounded-2xl border border-slate-200 p-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold text-slate-950">{servicePackage.name} package</h3>
          <p className="mt-1 text-sm text-slate-600">{servicePackage.desc}</p>
        </div>
        <p className="text-3xl font-extrabold tracking-tight text-slate-950 tabular-nums">
          {formatMoney(Number(servicePackage.price))}
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
        <Button type="button" size="lg" onClick={onOrderNow} className="mt-6 w-full">
          <ShoppingBag className="size-5" />
          Order Now
        </Button>
      )}
    </div>
  );
}
