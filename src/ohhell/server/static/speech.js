// What a screen reader says at the table, in the manner of lichess's blind mode: the play announced as it
// happens (turns, bids, cards, the winner of each trick, the result of each hand) and short keys that read out
// the state on demand (your cards, the trick, the bids, the score, the hand). Everything said goes into one
// live region, a log of the latest sentences (#announcer), so that nothing is lost when several come at once.

import { cardName, SUIT_NAMES } from "/static/cards.js";
import { sortHand, suitOrder } from "./handorder.js";

const KEPT = 80; // sentences kept in the log (a whole hand's); older ones are taken out

// The keys that read out (listed with the others in keys.js), each with what it says.
export const READ_OUTS = {
  c: { key: "C", meaning: "Read out your cards", say: (state) => yourCards(state) },
  t: { key: "T", meaning: "Read out the trick on the table", say: (state) => theTrick(state) },
  b: { key: "B", meaning: "Read out the bids and tricks won", say: (state) => theBids(state) },
  s: { key: "S", meaning: "Read out the score", say: (state) => theScore(state) },
  d: { key: "D", meaning: "Read out the hand: its number, trump, the dealer and whose turn it is", say: (state) => theHand(state) },
};

export function say(...sentences) {
  const log = document.getElementById("announcer");
  if (!log) return;
  for (const sentence of sentences) {
    if (!sentence) continue;
    const line = document.createElement("p");
    line.textContent = sentence;
    log.append(line);
  }
  while (log.childElementCount > KEPT) log.firstElementChild.remove();
}

// Read out what a key asks for (`letter` from READ_OUTS); nothing to read before the table has a state.
export function readOut(letter, state) {
  const entry = READ_OUTS[letter];
  if (!entry || !state) return false;
  say(entry.say(state));
  return true;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
// A card's accessible name: "Queen of hearts".
export const cardLabel = (card) => capital(cardName(card));
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const nameOf = (game, seat) => (seat === game.you ? "You" : game.players[seat].name);
const listed = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

function yourTurn(game, deal) {
  return deal.my_turn && !deal.finished && !game.waiting_for_next && !game.over;
}

// The sentence of a turn that has come to you: "Your turn to bid." / "Your turn to play, you lead."
export function turnSentence(state) {
  const { game, deal } = state;
  if (!yourTurn(game, deal)) return "";
  if (deal.phase === "bidding") return "Your turn to bid.";
  if (deal.phase === "choosing-trump") return "Your turn to choose trump.";
  return deal.trick.length ? "Your turn to play." : "Your turn to play, you lead.";
}

// What is said when the table shows the next moment: the action (its sentence comes from the server), the trick
// it finished, the end of the hand or of the game, and the turn when it has just come to you.
export function announceAction(before, after, event) {
  const sentences = [event.sentence ? `${event.sentence}.` : ""];
  if (event.trick) sentences.push(`${event.trick.sentence}.`);
  if (after.deal.finished && !(before && before.deal.finished)) sentences.push(handResult(after));
  if (after.game.over && !(before && before.game.over)) sentences.push(`Game over. ${after.game.result || ""}`);
  if (!(before && yourTurn(before.game, before.deal))) sentences.push(turnSentence(after));
  say(...sentences);
}

// What is said when the table is shown whole (the page opened, a new hand): the hand, and the turn if yours.
export function announceState(before, after) {
  if (before && before.deal.index === after.deal.index && before.game.id === after.game.id) return;
  if (after.game.over) say(`Game over. ${after.game.result || ""}`);
  else say(theHand(after));
}

function handResult(state) {
  const { game, deal, sheet } = state;
  const row = sheet.rows[deal.index];
  const each = game.players.map((_, seat) => {
    const plate = deal.plates[seat];
    const points = row ? row.cells[seat].points : 0;
    const made = plate.bid === plate.won ? "made it" : "missed";
    return `${nameOf(game, seat)} bid ${plate.bid}, won ${plate.won}, ${made}, ${points > 0 ? "+" : ""}${points}`;
  });
  return `${deal.title.split(" ·")[0]} is over. ${each.join("; ")}. ${theScore(state)}`;
}

function yourCards(state) {
  const { game, deal } = state;
  if (game.you < 0) return "You are watching: you have no cards.";
  if (!deal.hand.length) return "You have no cards left.";
  const bySuit = new Map();
  for (const card of sortHand(deal.hand, deal.trump)) {
    const suit = card.length === 2 && SUIT_NAMES[card[1]] ? card[1] : card;
    if (!bySuit.has(suit)) bySuit.set(suit, []);
    bySuit.get(suit).push(card);
  }
  const groups = [];
  for (const suit of [...["JE"], ...suitOrder(deal.trump), "MG"]) {
    const cards = bySuit.get(suit);
    if (!cards) continue;
    if (suit === "JE" || suit === "MG") groups.push(plural(cards.length, suit === "JE" ? "Jester" : "Magician"));
    else {
      const ranks = cards.map((card) => cardName(card).split(" of ")[0]);
      groups.push(`${SUIT_NAMES[suit]}${suit === deal.trump ? " (trump)" : ""}: ${ranks.join(", ")}`);
    }
  }
  let text = `Your ${plural(deal.hand.length, "card")}: ${groups.join("; ")}.`;
  if (yourTurn(game, deal) && deal.phase === "playing" && deal.playable.length < deal.hand.length) {
    text += ` You may play: ${listed(deal.playable.map(cardName))}.`;
  }
  return text;
}

function theTrick(state) {
  const { game, deal } = state;
  const trickNumber = Math.min(deal.tricks_played + 1, deal.size);
  if (deal.phase !== "playing" || !deal.trick.length) {
    const last = deal.last_trick ? ` Last trick: ${trickCards(game, deal.last_trick.cards)}; ${deal.last_trick.sentence}.` : "";
    const leads = deal.phase === "playing" ? ` ${nameOf(game, deal.to_act)} to lead trick ${trickNumber} of ${deal.size}.` : "";
    return `No card on the table.${leads}${last}`;
  }
  const winning = deal.winning === null || deal.winning === undefined ? "" : ` ${nameOf(game, deal.winning)} ${deal.winning === game.you ? "are" : "is"} winning it.`;
  return `Trick ${trickNumber} of ${deal.size}: ${trickCards(game, deal.trick)}.${winning} ${deal.status}`;
}

function trickCards(game, cards) {
  return cards.map(({ seat, card }) => `${nameOf(game, seat)}, ${cardName(card)}`).join("; ");
}

function theBids(state) {
  const { game, deal } = state;
  const each = game.players.map((_, seat) => `${nameOf(game, seat)}: ${plateWords(deal.plates[seat])}`);
  return `${each.join("; ")}. ${capital(deal.bar)}.`;
}

// A plate's bid and tricks in words: "bid 2, won 1, needs 1 more" (or "no bid yet").
export function plateWords(plate) {
  if (plate.bid === null) return "no bid yet";
  return `bid ${plate.bid}, won ${plate.won}${plate.label ? `, ${plate.label.toLowerCase()}` : ""}`;
}

function theScore(state) {
  const { game, sheet } = state;
  const order = game.players.map((_, seat) => seat).sort((a, b) => sheet.totals[b] - sheet.totals[a]);
  const each = order.map((seat) => `${nameOf(game, seat)} ${sheet.totals[seat]}`);
  return `Score after ${plural(sheet.rows.length, "hand")}: ${each.join(", ")}.`;
}

function theHand(state) {
  const { game, deal } = state;
  const dealer = `${nameOf(game, deal.dealer)} ${deal.dealer === game.you ? "deal" : "deals"}`;
  const turn = turnSentence(state) || (game.over ? "The game is over." : deal.status);
  return `${deal.title.replace(" · ", ", ")}. ${deal.trump_text}. ${dealer}. ${turn}`;
}
