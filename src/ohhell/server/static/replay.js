// Replay of a game's finished hands, trick by trick: every hand face up, the cards played so far faded.

import { cardName, cardPicture, suitLabel } from "/static/cards.js";
import { applyAppearance } from "./appearance.js";
import { showSeal } from "/static/game/seal.js";
import { loadSettings } from "./settings.js";

applyAppearance(loadSettings()); // the four-colour pack and high contrast of the Table settings, here too

const root = document.getElementById("replay");
const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

let data = null;
let hand = 0;
let step = 0; // 0: the hand as dealt, with the bids; k: after trick k

async function load() {
  const response = await fetch(`/api/games/${root.dataset.game}/replay`);
  data = await response.json();
  $("replay-rules").textContent = `${data.rules} · ${data.players.join(", ")}`;
  showSeal(data.commitment, $("seal"), $("deal-number"), "");
  if (!data.deals.length) {
    $("replay-empty").hidden = false;
    for (const id of ["replay-trick", "replay-seats"]) $(id).hidden = true;
    for (const id of ["replay-first", "replay-prev", "replay-next", "replay-hand"]) $(id).disabled = true;
    return;
  }
  for (const deal of data.deals) {
    const option = el("option", "", deal.title);
    option.value = deal.index;
    $("replay-hand").append(option);
  }
  render();
}

function render() {
  const deal = data.deals[hand];
  $("replay-hand").value = deal.index;
  const played = new Set();
  deal.tricks.slice(0, step).forEach((trick) => trick.cards.forEach(({ seat, card }) => played.add(`${seat}:${card}`)));
  const won = data.players.map(() => 0);
  deal.tricks.slice(0, step).forEach((trick) => (won[trick.winner] += 1));
  $("replay-step").textContent = step === 0 ? `${deal.title}: as dealt` : `${deal.title}: trick ${step} of ${deal.tricks.length}`;
  const undone = (data.undos || []).filter((u) => u.deal === deal.index);
  $("replay-undos").textContent = undone
    .map((u) => `Undo: ${data.players[u.seat]} took back ${u.taken_back.length} move${u.taken_back.length === 1 ? "" : "s"} (${u.taken_back.join(", ")}).`)
    .join(" ");
  const trickCards = $("replay-trick-cards");
  trickCards.replaceChildren();
  if (step === 0) {
    const turned = deal.turn_up ? `Turned up: ${cardName(deal.turn_up)}. ` : "";
    $("replay-trick-note").textContent = `${turned}Trump: ${suitLabel(deal.trump)}. Dealer: ${data.players[deal.dealer]}.`;
  } else {
    const trick = deal.tricks[step - 1];
    $("replay-trick-note").textContent = `Trick ${step}: ${data.players[trick.winner]} takes it.`;
    for (const { seat, card } of trick.cards) {
      const item = el("li", seat === trick.winner ? "won" : "");
      item.append(cardPicture(card, `${data.players[seat]}: ${cardName(card)}`), el("span", "", data.players[seat]));
      trickCards.append(item);
    }
  }
  const seats = $("replay-seats");
  seats.replaceChildren();
  data.players.forEach((name, seat) => {
    const box = el("section", "replay-seat");
    const last = step === deal.tricks.length;
    const score = last ? ` → ${deal.points[seat]} points (total ${deal.totals[seat]})` : "";
    box.append(el("h3", "", `${name}${seat === deal.dealer ? " (dealer)" : ""}: bid ${deal.bids[seat]}, won ${won[seat]}${score}`));
    const cards = el("ul", "mini-hand");
    cards.setAttribute("aria-label", `${name}'s hand`);
    for (const card of deal.hands[seat]) {
      const gone = played.has(`${seat}:${card}`);
      const item = el("li", gone ? "played" : "");
      item.append(cardPicture(card, `${cardName(card)}${gone ? " (played)" : ""}`));
      cards.append(item);
    }
    box.append(cards);
    seats.append(box);
  });
  $("replay-prev").disabled = hand === 0 && step === 0;
  $("replay-first").disabled = hand === 0 && step === 0;
  $("replay-next").disabled = hand === data.deals.length - 1 && step === deal.tricks.length;
}

function forward() {
  if (step < data.deals[hand].tricks.length) step += 1;
  else if (hand < data.deals.length - 1) [hand, step] = [hand + 1, 0];
  render();
}

function back() {
  if (step > 0) step -= 1;
  else if (hand > 0) [hand, step] = [hand - 1, data.deals[hand - 1].tricks.length];
  render();
}

$("replay-next").addEventListener("click", forward);
$("replay-prev").addEventListener("click", back);
$("replay-first").addEventListener("click", () => { [hand, step] = [0, 0]; render(); });
$("replay-hand").addEventListener("change", (event) => { [hand, step] = [Number(event.target.value), 0]; render(); });
load();
