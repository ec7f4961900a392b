// Where things go on the table so that everything fits the screen: the seats around the grid of the table, the
// cards of the hand close enough together (in two rows on a phone), the table as tall as the screen allows.

import { seatPosition } from "/static/cards.js";

export const PHONE = window.matchMedia("(max-width: 640px)");
const WIDE = window.matchMedia("(min-width: 981px)");
const MAX_FELT = 640;

// Which edge of the table a seat's plate goes to: "left", "top" or "right" (on a phone, every seat at the top).
export function seatSide(seat, you, players) {
  const where = seatPosition(seat, you, players);
  if (PHONE.matches) return "top";
  if (where.x < 0.3) return "left";
  if (where.x > 0.7) return "right";
  return "top";
}

// Seats in the order their plates are laid out: the left side from the bottom up, then the top from left to
// right, then the right side from the top down; that is, clockwise from your left, the order of play.
export function seatsAround(you, players) {
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
export function fitFelt(felt, area) {
  felt.style.height = "";
  const natural = felt.offsetHeight;
  if (!WIDE.matches && !PHONE.matches) return;
  const bottom = area.getBoundingClientRect().bottom + window.scrollY;
  const spare = window.innerHeight - bottom - 12;
  if (spare > 0) felt.style.height = `${Math.min(MAX_FELT, natural + spare)}px`;
}
