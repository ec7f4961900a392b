// Keyboard play: digits bid, arrows move between your cards and Enter plays the one in focus, N starts the next
// hand, H asks for a hint, C T B S D read the table out (speech.js), ? lists the keys. Keys typed into a field or
// with Ctrl, Alt or Meta are left alone.

import { READ_OUTS } from "./speech.js";

export const KEYS = [
  ["0 – 9", "Bid that number (for 10 and more, type both digits quickly)"],
  ["← →", "Move between your cards"],
  ["Enter", "Play the card in focus, or press the button in focus"],
  ["N", "Next hand"],
  ["H", "Hint"],
  ["W", "Why? (the computer players' reasons)"],
  ["L", "Last trick"],
  ...Object.values(READ_OUTS).map(({ key, meaning }) => [key, meaning]),
  ["?", "This list of keys"],
  ["Esc", "Close a window or the menu"],
];

const SECOND_DIGIT_MS = 700;

// `table` gives what the keys act on: bid(n), bids() (the allowed numbers), maxBid(), cards() (the hand's
// buttons), next(), hint(), why(), lastTrick(), readOut(letter), help().
export function installKeys(table) {
  let pending = null; // a first digit waiting for a second one (a hand of 10 cards or more)

  function bidDigit(digit) {
    const allowed = table.bids();
    if (!allowed.length) return false;
    if (pending !== null) {
      clearTimeout(pending.timer);
      const both = pending.digit * 10 + digit;
      pending = null;
      if (allowed.includes(both)) table.bid(both);
      return true;
    }
    if (digit > 0 && digit * 10 <= table.maxBid()) {
      // a 1 might be the start of 10 to 15: wait a moment for a second digit
      pending = {
        digit,
        timer: setTimeout(() => {
          pending = null;
          if (table.bids().includes(digit)) table.bid(digit);
        }, SECOND_DIGIT_MS),
      };
      return true;
    }
    if (allowed.includes(digit)) table.bid(digit);
    return true;
  }

  function moveAmongCards(step) {
    const cards = table.cards();
    if (!cards.length) return false;
    const at = cards.indexOf(document.activeElement);
    const next = at === -1 ? (step > 0 ? 0 : cards.length - 1) : Math.min(cards.length - 1, Math.max(0, at + step));
    cards[next].focus();
    return true;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    let used = false;
    if (/^[0-9]$/.test(event.key)) used = bidDigit(Number(event.key));
    else if (event.key === "ArrowRight" || event.key === "ArrowLeft") used = moveAmongCards(event.key === "ArrowRight" ? 1 : -1);
    else if (event.key === "n" || event.key === "N") used = table.next();
    else if (event.key === "h" || event.key === "H") used = table.hint();
    else if (event.key === "w" || event.key === "W") used = table.why();
    else if (event.key === "l" || event.key === "L") used = table.lastTrick();
    else if (event.key === "?") used = table.help();
    else if (Object.hasOwn(READ_OUTS, event.key.toLowerCase())) used = table.readOut(event.key.toLowerCase());
    if (used) event.preventDefault();
  });
}

// The list of keys, for the ? dialog.
export function fillKeyList(list) {
  list.replaceChildren();
  for (const [key, meaning] of KEYS) {
    const term = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    term.append(kbd);
    const description = document.createElement("dd");
    description.textContent = meaning;
    list.append(term, description);
  }
}
