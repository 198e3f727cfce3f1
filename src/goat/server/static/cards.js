// Cards on screen: the project's notation ("QH", "TS") drawn with the suit symbol
// AND its letter, so that no card is told apart by colour alone. Every game's
// cards are drawn here: Kozel's 6..A, Spades' 2..A and its two jokers
// ("LJ", "BJ": rank L or B, the pseudo-suit J).

import { dir, t } from "./i18n.js";

export const SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const JOKER = "J";
const JOKER_MARK = { L: "☆", B: "★" };

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

function isJoker(card) {
  return card[1] === JOKER;
}

/** "QH" -> "Q♥" (the compact form used in the log and status lines); a joker by its name. */
export function short(card) {
  if (isJoker(card)) return `${JOKER_MARK[card[0]] || ""}${t(`jokers.${card[0]}`)}`;
  return rankText(card[0]) + SYMBOLS[card[1]];
}

/** "8♥ K♥": cards in the compact form, in a row. On a right-to-left page the row is
 * isolated left to right (U+2066…U+2069): a suit glyph takes the direction of the
 * Arabic around it, and "Q♦ Q♥" would read "Q ♦Q♥". */
export function cardsText(cards) {
  const row = cards.map(short).join(" ");
  return dir() === "rtl" ? `\u2066${row}\u2069` : row;
}

export function cardName(card) {
  if (isJoker(card)) return t(`jokers.${card[0]}`);
  return t("cardName", { rank: t(`ranks.${card[0]}`), suit: t(`suits.${card[1]}`) });
}

/** Cards in words ("eight of hearts, king of hearts"): what a screen reader is given
 * where the screen shows "8♥ K♥" (a suit glyph is read as an English symbol name,
 * or not at all). */
export function cardsSaid(cards) {
  return cards.map((c) => (c === "?" ? t("faceDown") : cardName(c))).join(", ");
}

/** The two ways a line that names cards is written, for the text builders (the log,
 * the status, the hint) that take one: for the eye, compact ("8♥", a suit "♣ C"),
 * and for the ear, in words. table.js's `spoken` puts both in one node. */
export const SHOWN = { cards: cardsText, suit: (s) => `${SYMBOLS[s]} ${s}` };
export const SAID = { cards: cardsSaid, suit: (s) => t(`suits.${s}`) };

/** A face-up card element: rank, suit symbol and suit letter (a joker: its star and name). */
export function cardFace(card, tag = "div") {
  const el = document.createElement(tag);
  el.className = `card suit-${card[1]}`;
  el.dataset.card = card;
  el.setAttribute("aria-label", cardName(card));
  if (tag !== "button") el.setAttribute("role", "img");   // a name on a bare div is not read
  if (isJoker(card)) {
    el.classList.add(`joker-${card[0]}`);
    el.innerHTML =
      `<span class="corner" aria-hidden="true"><span class="rank">${JOKER_MARK[card[0]]}</span></span>` +
      `<span class="pip" aria-hidden="true">${JOKER_MARK[card[0]]}</span>` +
      `<span class="letter" aria-hidden="true">${card}</span>`;
    return el;
  }
  el.innerHTML =
    `<span class="corner" aria-hidden="true"><span class="rank">${rankText(card[0])}</span>` +
    `<span class="sym">${SYMBOLS[card[1]]}</span></span>` +
    `<span class="pip" aria-hidden="true">${SYMBOLS[card[1]]}</span>` +
    `<span class="letter" aria-hidden="true">${card[1]}</span>`;
  return el;
}

export function cardBack(extraClass = "") {
  const el = document.createElement("div");
  el.className = `card back ${extraClass}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", t("faceDown"));
  return el;
}

/** Same cards, whatever the order: the key of an action's card set. */
export function setKey(cards) {
  return [...cards].sort().join("+");
}

/** "2 play KH+AH" -> {seat: 2, verb: "play", cards: ["KH", "AH"]} ("?" stays "?");
 * "1 bid nil" -> {seat: 1, verb: "bid", bid: "nil", cards: []} (a bid names no card). */
export function parseAction(text) {
  const [seat, verb, rest = ""] = text.split(" ");
  if (verb === "bid") return { seat: Number(seat), verb, bid: rest, cards: [], text };
  return { seat: Number(seat), verb, cards: rest ? rest.split("+") : [], text };
}
