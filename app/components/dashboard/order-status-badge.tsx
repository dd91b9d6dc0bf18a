import { Badge, type BadgeTone } from "~/components/ui/badge";
import { ORDER_STATUS_LABELS, type ApiOrderStatus } from "~/domain/order-status";

const tones: Record<ApiOrderStatus, BadgeTone> = {
  pending: "warning",
  paid: "success",
  expired: "neutral",
  refunded: "danger",
  partially_refunded: "accent",
};

export function OrderStatusBadge({ status }: { status: ApiOrderStatus }) {
  return <Badge tone={tones[status]}>{ORDER_STATUS_LABELS[status]}</Badge>;
}
