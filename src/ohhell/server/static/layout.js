// Where things go on the table so that everything fits the screen: the seats around the grid of the table, the
// cards of the hand close enough together (in two rows on a phone), the table as tall as the screen allows.

import { seatPosition } from "/static/cards.js";

export const PHONE = window.matchMedia("(max-width: 640px)");
const WIDE = window.matchMedia("(min-width: 981px)");
const MAX_FELT = 640;

// Where a seat sits around the table as fractions of its width and height: you at the bottom; a spectator (no
// seat, `you` < 0) sees every seat, as if sitting at the bottom between the last seat and the first.
export function placeOf(seat, you, players) {
  return you < 0 ? seatPosition(seat + 1, 0, players + 1) : seatPosition(seat, you, players);
}

// Which edge of the table a seat's plate goes to: "left", "top" or "right" (on a phone, every seat at the top).
export function seatSide(seat, you, players) {
  const where = placeOf(seat, you, players);
  if (PHONE.matches) return "top";
  if (where.x < 0.3) return "left";
  if (where.x > 0.7) return "right";
  return "top";
}

// Seats in the order their plates are laid out: the left side from the bottom up, then the top from left to
// right, then the right side from the top down; that is, clockwise from your left, the order of play.
export function seatsAround(you, players) {
  if (you < 0) return [...Array(players).keys()];
  const seats = [];
  for (let turn = 1; turn < players; turn++) seats.push((you + turn) % players);
  return seats;
}

// Cards per row: one row, or on a phone two rows once there are more than eight cards.
export function handRows(count) {
  if (!PHONE.matches || count <= 8) return [count];
  const first = Math.ceil(count / 2);
  return [first, count - first];
}

// How far apart the cards of a row of `count` sit so that the row fits `width` pixels (at most 82% of a card).
export function cardStep(width, cardWidth, count) {
  if (count <= 1) return cardWidth;
  return Math.max(6, Math.min(cardWidth * 0.82, (width - cardWidth) / (count - 1)));
}

// Lay the hand's buttons out in rows, with the step that fits the hand's width.
export function layOutHand(box, buttons) {
  const rows = handRows(buttons.length);
  const style = getComputedStyle(box);
  const width = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cardWidth = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 92;
  box.style.setProperty("--step", `${cardStep(width, cardWidth, Math.max(...rows))}px`);
  let next = 0;
  const rowNodes = rows.map((count) => {
    const row = document.createElement("div");
    row.className = "hand-row";
    row.append(...buttons.slice(next, next + count));
    next += count;
    return row;
  });
  box.replaceChildren(...rowNodes);
}

// Make the table as tall as the screen leaves (at wide sizes the whole table area fits the screen); never shorter
// than its content, so a panel is never cut off.
// A table not on show (the waiting room hides it) is left at its natural height, to be fitted when it is shown.
export function fitFelt(felt, area) {
  keepHandInView(document.getElementById("hand"));
  felt.style.height = "";
  if (!area.getClientRects().length) return;
  const natural = felt.offsetHeight;
  if (!WIDE.matches && !PHONE.matches) return;
  const bottom = area.getBoundingClientRect().bottom + window.scrollY;
  const spare = window.innerHeight - bottom - 12;
  if (spare > 0) felt.style.height = `${Math.min(MAX_FELT, natural + spare)}px`;
}

// On a short phone the hand stays at the bottom of the screen (ohhell.css): what the page scrolls into view (a focused
// bid button, the panel it follows) stops above the hand, not under it.
const SHORT_PHONE = window.matchMedia("(max-width: 640px) and (max-height: 800px)");
function keepHandInView(hand) {
  const height = SHORT_PHONE.matches && hand ? hand.offsetHeight : 0;
  document.documentElement.style.scrollPaddingBottom = height ? `${height}px` : "";
}

// At a shared table on a wide screen the score sheet and the people panel (chat, who is watching) share the column
// beside the table: the sheet gets what the screen leaves above the people panel (at least 160 px; it scrolls
// inside), so that the chat's input is on the screen and neither covers the other.
export function fitSide() {
  const sheet = document.querySelector(".sheet-area");
  const people = document.getElementById("people");
  if (!sheet || !people) return;
  sheet.style.maxHeight = "";
  if (!WIDE.matches || people.hidden || !sheet.getClientRects().length) return;
  const top = sheet.getBoundingClientRect().top + window.scrollY;
  const gap = parseFloat(getComputedStyle(sheet.parentElement).rowGap) || 0;
  const room = window.innerHeight - top - people.offsetHeight - gap - 12;
  sheet.style.maxHeight = `${Math.max(160, room)}px`;
}

// Where messages to the person go (a hint, why a card may not be played): beside the table on a wide screen, above
// the score sheet; elsewhere over the top of the table. Either way they never push the hand off the screen.
export function placeNotice(notice) {
  const home = WIDE.matches ? document.querySelector(".sheet-area") : document.getElementById("felt");
  if (home && notice.parentElement !== home) home.prepend(notice);
}
WIDE.addEventListener("change", () => placeNotice(document.getElementById("notice")));
