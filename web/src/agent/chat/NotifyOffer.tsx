// While an answer is being written: an offer to be told by the browser when
// it finishes in a hidden tab. Shown only while the browser has not been
// asked; the browser's own prompt decides.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Bell } from "lucide-react";

const askable = () => typeof Notification !== "undefined" && Notification.permission === "default";

export function NotifyOffer() {
  const { t } = useTranslation("agent");
  const [shown, setShown] = useState(askable);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="link-btn small notify-offer"
      onClick={() => void Notification.requestPermission().finally(() => setShown(askable()))}
    >
      <Bell size={11} aria-hidden /> {t("notifyOffer")}
    </button>
  );
}
