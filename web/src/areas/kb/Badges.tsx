// Badges the knowledge base pages share: an entry's expiry (status and how
// far away), the hub's root entry.
import { format } from "../../i18n";
import { daysUntil } from "./api";
import { useS } from "./strings";

export function ExpiryBadge({
  status,
  expiryDate,
  isPaused,
}: {
  status: string;
  expiryDate: string;
  isPaused?: boolean;
}) {
  const s = useS();
  // Whole days, rounded up: a renewal "for 60 days" reads 60, not 59.
  const days = daysUntil(expiryDate);
  const date = new Date(expiryDate).toLocaleDateString();
  let kind = "ok";
  let text: string;
  if (isPaused) {
    kind = "paused";
    text = s.expiryPaused;
  } else if (status === "Draft") {
    kind = "draft";
    text = format(s.expiresOnDraft, { date });
  } else if (days < 0 || status === "Expired") {
    kind = "expired";
    text = format(s.expiredAgo, { n: Math.abs(days), date });
  } else {
    if (status === "Warning") kind = "warning";
    else if (status === "ExpiringSoon") kind = "soon";
    text = format(days === 1 ? s.expiresInOne : s.expiresIn, { n: days, date });
  }
  return (
    <span className={`badge expiry expiry-${kind}`} data-expiry-days={days} title={date}>
      {text}
    </span>
  );
}
