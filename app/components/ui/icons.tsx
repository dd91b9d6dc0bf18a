import type { SVGProps } from "react";

import sprite from "~/assets/icons.svg?no-inline";

/**
 * Icons drawn from one hashed, cached sprite file (scripts/icon-sprite.mjs builds it from lucide's
 * shapes), under lucide-react's names: a page carries `<svg><use href="/assets/icons-….svg#inbox"/></svg>`
 * (about 120 bytes) where the inline icon repeated its paths (300–700 bytes) in every document. Used
 * for the icons every signed-in page repeats: the sidebar and the dashboards' lists (decision 297).
 * A new icon here needs `node scripts/icon-sprite.mjs`.
 */
function spriteIcon(name: string) {
  function SpriteIcon({ width = 24, height = 24, ...props }: SVGProps<SVGSVGElement>) {
    return (
      <svg width={width} height={height} aria-hidden="true" {...props}>
        <use href={`${sprite}#${name}`} />
      </svg>
    );
  }
  SpriteIcon.displayName = name;
  return SpriteIcon;
}

export const ArrowLeft = spriteIcon("arrow-left");
export const ArrowRight = spriteIcon("arrow-right");
export const BadgeCheck = spriteIcon("badge-check");
export const Bell = spriteIcon("bell");
export const CalendarDays = spriteIcon("calendar-days");
export const ChevronLeft = spriteIcon("chevron-left");
export const ChevronRight = spriteIcon("chevron-right");
export const CircleDollarSign = spriteIcon("circle-dollar-sign");
export const ClipboardList = spriteIcon("clipboard-list");
export const Clock = spriteIcon("clock");
export const CreditCard = spriteIcon("credit-card");
export const Download = spriteIcon("download");
export const FileText = spriteIcon("file-text");
export const Filter = spriteIcon("filter");
export const Gauge = spriteIcon("gauge");
export const History = spriteIcon("history");
export const Inbox = spriteIcon("inbox");
export const LayoutDashboard = spriteIcon("layout-dashboard");
export const ListChecks = spriteIcon("list-checks");
export const LogOut = spriteIcon("log-out");
export const Mail = spriteIcon("mail");
export const MessageSquare = spriteIcon("message-square");
export const Paperclip = spriteIcon("paperclip");
export const Plus = spriteIcon("plus");
export const Receipt = spriteIcon("receipt");
export const RefreshCw = spriteIcon("refresh-cw");
export const Repeat = spriteIcon("repeat");
export const Search = spriteIcon("search");
export const SendHorizontal = spriteIcon("send-horizontal");
export const ShieldCheck = spriteIcon("shield-check");
export const ShoppingBag = spriteIcon("shopping-bag");
export const ShoppingCart = spriteIcon("shopping-cart");
export const Tags = spriteIcon("tags");
export const Upload = spriteIcon("upload");
export const UserCog = spriteIcon("user-cog");
export const UserX = spriteIcon("user-x");
export const Users = spriteIcon("users");
export const UsersRound = spriteIcon("users-round");
