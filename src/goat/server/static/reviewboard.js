// The deal diagram of the review (review.js): the position a chosen row's card was
// played in, as bridge sites' hand viewers draw it — the hands around the table
// (my seat at the bottom, the others where they sit at the table), the trick so far
// in the middle, the card played and the best card(s) marked each with its own sign
// (▲, ★) and named in words for a screen reader (not by colour alone), and the trump
// suit. It draws the server's `position` of a move (goat.analysis: every hand, read
// from each seat's own view once the match is over, as the record shows them); the
// cards are cards.js's faces.

import { listOf, t } from "./i18n.js";
import { cardFace, cardName, cardsSaid, cardsText, parseAction, SYMBOLS } from "./cards.js";
import { el, oneImage, spoken, turnName } from "./table.js";

/** The signs on the diagram's cards and in its legend: the card played, a best card. */
const PLAYED = "▲";
const BEST = "★";

/** The cards of a move's action(s): the played card's, the best ones'. */
function cardsOfActions(actions) {
  return new Set(actions.flatMap((a) => parseAction(a).cards));
}

/** What a card is in this position, in words: "played", "best", both, or nothing. */
function roles(card, played, best) {
  return [played.has(card) && t("review.markPlayed"), best.has(card) && t("review.markBest")].filter(Boolean);
}

/** A card of a hand, marked where it is the card played or a best card. */
function boardCard(card, played, best) {
  const face = cardFace(card);
  const signs = (played.has(card) ? PLAYED : "") + (best.has(card) ? BEST : "");
  if (played.has(card)) face.classList.add("played");
  if (best.has(card)) face.classList.add("best");
  if (signs) face.append(el("span", "board-mark", signs));
  return face;
}

/** A seat's hand: its name (▶ for the seat to play), its cards in rows by suit, read
 * as one image named by its cards in words, the marked ones with their role. */
function hand(seat, cards, mover, played, best, { seatName, posOf }) {
  const box = el("div", `board-hand pos-${posOf(seat)}`);
  box.dataset.seat = String(seat);
  const rows = el("div", "board-cards");
  let row = null;
  for (const card of cards) {
    if (!row || row.dataset.suit !== card[1]) {
      row = el("div", "board-suit");
      row.dataset.suit = card[1];
      rows.append(row);
    }
    row.append(boardCard(card, played, best));
  }
  const said = cards.length
    ? cards.map((c) => {
      const marks = roles(c, played, best);
      return marks.length ? `${cardName(c)} (${marks.join(", ")})` : cardName(c);
    }).join(", ")
    : t("review.noCards");
  if (!cards.length) rows.append(el("span", "board-none", "—"));
  box.append(turnName("div", seat === mover, seatName(seat)), oneImage(rows, `${seatName(seat)}: ${said}`));
  return box;
}

/** The trick so far in the middle: each play in its seat's place, read in words. */
function trick(plays, { seatName, posOf }) {
  const box = el("div", "board-trick");
  for (const play of plays) {
    const slot = el("div", `board-play pos-${posOf(play.seat)}`);
    slot.append(...play.cards.map((c) => cardFace(c)));
    box.append(slot);
  }
  const said = plays.length
    ? t("review.onTable", { plays: listOf(plays.map((p) => `${seatName(p.seat)}: ${cardsSaid(p.cards)}`)) })
    : t("review.tableEmpty");
  return oneImage(box, said);
}

/** The line under the title: the trump suit (Spades': spades, always) and the stock's size. */
function info(r, position) {
  const line = el("p", "board-info");
  if (position.trump) {
    line.append(spoken(el("span"), `${t("trump")}: ${SYMBOLS[position.trump]} ${position.trump}`,
                       `${t("trump")}: ${t(`suits.${position.trump}`)}`));
  } else if (r.game === "spades") {
    line.append(el("span", "", t("spadesTrump")));
  }
  if (position.stock) line.append(el("span", "", t("stock", { n: position.stock })));
  return line;
}

/** The legend: which card was played and which were best, by sign and by name. */
function legend(move) {
  const played = [parseAction(move.action).cards];
  const best = move.best.map((a) => parseAction(a).cards);
  const line = (sign, key, sets) => spoken(el("span"),
    `${sign} ${t(key)}: ${listOf(sets.map(cardsText))}`, `${t(key)}: ${listOf(sets.map(cardsSaid))}`);
  const box = el("p", "board-legend");
  box.append(line(PLAYED, "review.played", played), line(BEST, "review.best", best));
  return box;
}

/** Draw the position of `move` (a row of review `r`) into `box`, its seats named and
 * placed by `names` ({seatName, posOf}: the table's, or an opened record's). */
export function drawBoard(box, r, move, names) {
  const position = move.position;
  const played = cardsOfActions([move.action]);
  const best = cardsOfActions(move.best);
  const title = el("h3", "board-title", t("review.boardTitle", { n: move.trick, name: names.seatName(move.seat) }));
  title.id = "review-board-title";
  const felt = el("div", "board-felt");
  felt.append(...position.hands.map((cards, seat) => hand(seat, cards, move.seat, played, best, names)),
              trick(position.trick, names));
  box.replaceChildren(title, info(r, position), legend(move), felt);
  box.hidden = false;
}
