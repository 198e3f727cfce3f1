// "Play again" in the match result of every game (app.js for the trick games,
// yugioh.js for a duel). The server makes one rematch per finished table
// (POST /api/tables/{id}/rematch, docs/server.md): the same game, rules,
// options and bots, new cards, and whoever asks in their own old seat. The
// first player to ask makes it; the old table's state then says where it is
// (`rematch`), so everyone else's page turns its button into "Join the
// rematch" (the same request: it seats them in their own old seat while that
// is free; their name is kept for them meanwhile, the server's "nameKept") and
// a spectator's into a link to watch it. The new seat's token is
// kept like any other (table.js saveSeat), and the page opens the new table's
// lobby by its usual address, /?table=<id>.

import { t } from "./i18n.js";
import { S, api, el, savedSeat, saveSeat, toast } from "./table.js";

/** Ask for the rematch (or join it) and open it; a refusal is shown like any other. */
async function playAgain() {
  const known = S.msg.rematch;
  if (known && savedSeat(known)) {           // already seated there (another tab, or back here)
    location.href = `?table=${known}`;
    return;
  }
  try {
    const answer = await api("POST", `api/tables/${S.tableId}/rematch`, null, S.token);
    // No token: my old seat there is taken or the rematch has begun; I arrive to watch.
    if (answer.token) saveSeat(answer.id, answer.token, answer.seat);
    location.href = `?table=${answer.id}`;
  } catch (err) {
    toast(err.message);
  }
}

/** Draw the rematch control into `box` (a result dialog's span): redrawn only
 * when what it offers changes, so that keyboard focus on it is kept. */
export function drawRematch(box) {
  const m = S.msg;
  let kind = null;
  if (m.status === "finished") {
    if (S.seat !== null) kind = m.rematch ? "join" : "play";
    else if (m.rematch) kind = "watch";
  }
  const key = `${kind}|${m.rematch || ""}|${t("rematch.play")}`;   // the language too
  if (box.dataset.key === key) return;
  const hadFocus = box.contains(document.activeElement);
  box.dataset.key = key;
  box.replaceChildren();
  let control = null;
  if (kind === "watch") {
    control = el("a", "button primary rematch-watch", t("rematch.watch"));
    control.href = `?table=${m.rematch}`;
  } else if (kind) {
    control = el("button", `primary rematch-${kind}`, t(`rematch.${kind}`));
    control.type = "button";
    control.addEventListener("click", playAgain);
  }
  if (control) box.append(control);
  box.hidden = !control;
  if (control && hadFocus) control.focus();
}
