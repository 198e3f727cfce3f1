// What is printed on a Yu-Gi-Oh! card, for the names the view already gave the
// page: kind, Attribute, Type, Level, ATK/DEF and the effect text. The catalog
// is public reference data (the engine's card database), fetched once from
// GET /api/games/{game}/cards; the view never carries it, and the page only
// decorates names it holds — a face-down card of the other player is "?" and
// stays a back.
//
// Any element with data-info="<card name>" inside the duel page gets the
// detail panel next to it on hover and on keyboard focus (Escape closes it).
// The effect text is the page's language's (the catalog's `texts`, Russian for
// the Russian page), with `lang` set to it so that a screen reader reads it in
// that language; a card without one in that language shows the English text.
//
// It never takes a click (pointer-events: none), so it cannot hide a button
// under it. A click pins it where the click does nothing else (a pile's card,
// a card with no action now); a card whose click narrows the actions shows its
// details in the actions box instead (yugioh.js `cardInfo`).

import { lang, listOf, t } from "./i18n.js";
import { el, named } from "./table.js";

let catalog = null;        // {name: entry} once loaded
let loading = null;
let detail = null;         // {box, anchor, name, pinned, quiet, lang}

/** Load the catalog of `game` once; `onReady` runs when it arrives (a redraw). */
export function loadCatalog(game, onReady) {
  if (catalog || loading) return;
  loading = fetch(`api/games/${encodeURIComponent(game)}/cards`)
    .then((r) => (r.ok ? r.json() : { cards: {} }))
    .then((data) => { catalog = data.cards || {}; onReady(); })
    .catch(() => { loading = null; });                 // the page works without it; tried again next state
}

/** The catalog entry of `name`, or null (not loaded yet, a hidden card, an unknown name). */
export function info(name) {
  return (catalog && name && catalog[name]) || null;
}

/** "Effect Monster", "Quick-Play Spell", "Counter Trap". */
export function kindName(entry) {
  return named("ygo.kinds", `${entry.kind}/${entry.subtype}`);
}

/** "★4 LIGHT Warrior" for a monster, "" for a Spell or Trap. */
export function monsterLine(entry) {
  if (entry.kind !== "monster") return "";
  return `★${entry.level} ${named("ygo.attributes", entry.attribute)} · ${named("ygo.races", entry.type)}`;
}

/** "★4 LIGHT": what a small card has room for. */
export function levelLine(entry) {
  return entry.kind === "monster" ? `★${entry.level} ${named("ygo.attributes", entry.attribute)}` : "";
}

/** "1600 / 1000" (printed ATK / DEF) for a monster, "" otherwise. */
export function printedStats(entry) {
  return entry.kind === "monster" ? `${entry.atk} / ${entry.def}` : "";
}

/** A short spoken form: "Effect Monster, Level 4, ATK 1600, DEF 1000". */
export function spoken(entry, withStats = true) {
  const parts = [kindName(entry)];
  if (entry.kind === "monster") {
    parts.push(t("ygo.level", { n: entry.level }));
    if (withStats) parts.push(`${t("ygo.atk")} ${entry.atk}`, `${t("ygo.def")} ${entry.def}`);
  }
  return parts.join(", ");
}

/** Mark `node` as showing the card `name` (the detail panel follows it). */
export function describe(node, name) {
  if (name && name !== "?") node.dataset.info = name;
  return node;
}

// ------------------------------------------------------------ the panel
function panel() {
  if (detail) return detail.box;
  const box = el("div", "card-detail");
  box.id = "card-detail";
  box.setAttribute("role", "tooltip");
  box.hidden = true;
  // In the page's main landmark, beside the cards it describes (position: fixed, so its
  // place in the document does not move it): outside every landmark, a reader moving
  // by landmarks never meets it (axe: region).
  document.querySelector("main").append(box);
  detail = { box, anchor: null, name: null, pinned: false, quiet: null };
  return box;
}

/** Fill `box` with the card `name`'s details (the panel, or the actions box's card). */
export function fill(box, name, entry = info(name)) {
  box.innerHTML = "";
  box.append(el("h3", "detail-name", name));
  if (!entry) {
    box.append(el("p", "hint", t("ygo.noDetails")));
    return;
  }
  box.append(el("p", "detail-kind", kindName(entry)));
  if (entry.kind === "monster") {
    box.append(el("p", "detail-monster", monsterLine(entry)));
    box.append(el("p", "detail-stats", `${t("ygo.atk")} ${entry.atk} / ${t("ygo.def")} ${entry.def}`));
  }
  if (entry.materials) box.append(el("p", "detail-extra", t("ygo.materials", { names: entry.materials.join(" + ") })));
  if (entry.hosts) box.append(el("p", "detail-extra", t("ygo.hosts", { names: listOf(entry.hosts) })));
  const [code, words] = effectText(entry);
  const text = el("p", "detail-text", words);
  text.lang = code;
  box.append(text);
}

/** [language, text] of `entry`'s effect: the page's language if the catalog has it, else English. */
export function effectText(entry) {
  const code = lang();
  const words = entry.texts?.[code];
  return words ? [code, words] : ["en", entry.texts?.en ?? entry.text];
}

function place(box, anchor) {
  const r = anchor.getBoundingClientRect();
  const width = Math.min(300, window.innerWidth - 16);
  box.style.width = `${width}px`;
  box.style.left = `${Math.max(8, Math.min(r.left + r.width / 2 - width / 2, window.innerWidth - width - 8))}px`;
  const height = box.offsetHeight;
  // on the roomier side: above my hand (the actions are below it), below the other field
  const room = { above: r.top - 14, below: window.innerHeight - r.bottom - 14 };
  const above = room.above >= height && (room.above > room.below || room.below < height);
  box.style.top = `${Math.max(8, above ? r.top - height - 6 : r.bottom + 6)}px`;
}

/** Show the detail of `anchor`'s card next to it; `pinned` (a click) keeps it open. */
export function showDetail(anchor, pinned = false) {
  const name = anchor.dataset.info;
  if (!name) return;
  const box = panel();
  if (detail.quiet === anchor && !pinned) return;       // its details are in the actions box now
  if (detail.anchor === anchor && !box.hidden) {
    detail.pinned = detail.pinned || pinned;
    return;
  }
  if (detail.pinned && !pinned && detail.anchor !== anchor && !anchor.matches(":focus")) return;
  if (detail.anchor) detail.anchor.removeAttribute("aria-describedby");
  fill(box, name, info(name));
  detail.lang = lang();
  box.hidden = false;
  detail.anchor = anchor;
  detail.name = name;
  detail.pinned = pinned || (detail.pinned && detail.name === name);
  anchor.setAttribute("aria-describedby", "card-detail");
  place(box, anchor);
}

/** Pin the panel on `anchor` (a click that did nothing else), or close it. */
export function pinDetail(anchor) {
  if (anchor?.dataset?.info) showDetail(anchor, true);
  else hideDetail(true);
}

/** Quiet the panel for `anchor` until the pointer leaves it: a click showed its
 * details elsewhere (the actions box), and a panel over the actions would hide them. */
export function quietDetail(anchor) {
  panel();
  detail.quiet = anchor;
  detail.pinned = false;
  hideDetail(true);
}

/** Hide the panel (unless pinned, or `force`: Escape, a click elsewhere, a narrowing click). */
export function hideDetail(force = false) {
  if (!detail || detail.box.hidden || (detail.pinned && !force)) return;
  if (detail.anchor) detail.anchor.removeAttribute("aria-describedby");
  detail.box.hidden = true;
  detail.anchor = null;
  detail.pinned = false;
}

/** After a redraw: follow the card to its new element, or close the panel if it is gone. */
export function refreshDetail(root) {
  if (!detail || detail.box.hidden) return;
  if (detail.lang !== lang()) {                        // the language was switched: the open panel too
    fill(detail.box, detail.name, info(detail.name));
    detail.lang = lang();
  }
  if (detail.anchor && document.body.contains(detail.anchor)) {
    place(detail.box, detail.anchor);
    return;
  }
  const again = detail.anchor?.dataset?.place
    ? root.querySelector(`[data-place="${detail.anchor.dataset.place}"][data-info="${CSS.escape(detail.name)}"]`)
    : null;
  if (again && detail.pinned) {
    detail.anchor = again;
    again.setAttribute("aria-describedby", "card-detail");
    place(detail.box, again);
  } else {
    detail.pinned = false;
    hideDetail(true);
  }
}

/** Wire the panel to `root` once: hover, focus, click and Escape. */
export function watchDetails(root) {
  if (root.dataset.details) return;
  root.dataset.details = "1";
  const target = (e) => e.target.closest?.("[data-info]");
  root.addEventListener("mouseover", (e) => { const n = target(e); if (n) showDetail(n); });
  root.addEventListener("mouseout", (e) => {
    const n = target(e);
    if (!n || n.contains(e.relatedTarget)) return;
    if (detail?.quiet === n) detail.quiet = null;
    hideDetail();
  });
  root.addEventListener("focusin", (e) => {
    const n = target(e);
    if (!n) return;
    if (detail?.quiet === n) detail.quiet = null;       // the keyboard came back to it: show again
    showDetail(n);
  });
  root.addEventListener("focusout", (e) => { if (target(e)) hideDetail(); });
  root.addEventListener("click", (e) => {
    const n = target(e);
    if (n && !n.matches("button")) showDetail(n, true);      // buttons say for themselves (pinDetail)
    else if (!n) hideDetail(true);
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideDetail(true); });
  window.addEventListener("resize", () => refreshDetail(root));
  window.addEventListener("scroll", () => refreshDetail(root), { passive: true });
}
