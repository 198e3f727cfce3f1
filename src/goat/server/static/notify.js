// The browser tab says when it is your turn.
//
// People play with the table in a background tab while friends think; the tab's
// title is the one thing they still see. So while the seat of this page has an
// action to take, the title starts with "▶ Your turn" ("▶ Ваш ход"), in every
// game, and goes back to the page's own title as soon as it is not. Nothing is
// sent to the server and nothing is asked of the browser (no notification
// permission, no sound).

import { t } from "./i18n.js";
import { S } from "./table.js";

/** Whether this page's seat has an action to take in the state message ``m``. */
export function myTurn(m) {
  if (!m || m.status !== "playing" || S.seat === null || !m.view) return false;
  const prefix = `${S.seat} `;
  return (m.view.legal_actions || []).some((a) => a.startsWith(prefix));
}

/** Set the tab's title from the latest state message (called at every render). */
export function noteTurn() {
  const base = t("title");
  const title = myTurn(S.msg) ? `▶ ${t("yourTurn")} · ${base}` : base;
  if (document.title !== title) document.title = title;
}
