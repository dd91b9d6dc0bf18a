import { Badge, type BadgeTone } from "~/components/ui/badge";
import { POST_STATUS_LABELS, type PostStatus } from "~/domain/calendar";

const tones: Record<PostStatus, BadgeTone> = {
  draft: "neutral",
  in_review: "warning",
  changes_requested: "danger",
  approved: "success",
  published: "brand",
};

export function PostStatusBadge({ status }: { status: PostStatus }) {
  return (
    <Badge tone={tones[status]} data-status={status}>
      {POST_STATUS_LABELS[status]}
    </Badge>
  );
}
