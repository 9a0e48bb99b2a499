// Telling a user whose tab is hidden that a long answer finished: a mark in
// the tab's title until they come back, and the browser's notification when
// they allowed it.

import i18n from "../../i18n";

const MARK = "● ";

/** notifyIfHidden tells of a finished answer to question, if the page is hidden now. */
export function notifyIfHidden(question: string): void {
  if (typeof document === "undefined" || !document.hidden) return;
  if (!document.title.startsWith(MARK)) {
    document.title = MARK + document.title;
    const back = () => {
      if (document.hidden) return;
      if (document.title.startsWith(MARK)) document.title = document.title.slice(MARK.length);
      document.removeEventListener("visibilitychange", back);
    };
    document.addEventListener("visibilitychange", back);
  }
  if (typeof Notification !== "undefined" && Notification.permission === "granted") {
    new Notification(i18n.t("agent:answerReady"), { body: question.slice(0, 140), tag: "knowspace-answer" });
  }
}
