// The table: one WebSocket to the server. It sends this seat's whole state when the page connects (and at each
// new hand), then with every action only what changed, which merge() lays over the state held here.
// Actions are played back one at a time, briefly animated, so a person can follow the computer players.

import { cardBack, cardName, cardPicture, suitLabel, SUIT_SYMBOLS } from "/static/cards.js";
import { sortHand } from "./handorder.js";
import { fillKeyList, installKeys } from "./keys.js";
import { fitFelt, fitSide, layOutHand, placeNotice, placeOf, seatSide, seatsAround } from "./layout.js";
import { bindSettingsDialog, loadSettings, SPEEDS } from "./settings.js";
import { playSound } from "./sounds.js";
import { applyAppearance } from "./appearance.js";
import { announceAction, announceState, cardLabel, plateWords, readOut, say } from "./speech.js";
import { chatRefused, initChat, onChat } from "/static/game/chat.js";
import { currentPeople, decorate, initPeople, moveTo, onPeople, playAgainControls } from "/static/game/people.js";
import { showSeal } from "/static/game/seal.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const scale = Number(root.dataset.animationScale || "1");
const DELAYS = { bid: 650, card: 750, trick: 1500 };
const SIGNED_OUT = 4401; // the close code of a socket whose session ended (ohhell.web.accounts.sockets)
const TURNED_AWAY = 4429; // the socket's close code for too many of its kind (ohhell.server.pages.routes.FULL_CODE)
const CATCH_UP = 6; // with more actions than this waiting (after a reconnect), skip the pauses
const AUTO_NEXT_SECONDS = 5; // "next hand by itself": how long the finished hand stays before the next one
const INFO_NOTICES = new Set(["saved", "undo"]); // the server's notices that report what went well
const settings = loadSettings();
applyAppearance(settings);
// the cards' slide and the turn chip's pulse follow the speed setting too
const setAnimationScale = () =>
  document.documentElement.style.setProperty("--anim-scale", String(scale * SPEEDS[settings.speed].factor));
setAnimationScale();

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};
// Every pause of the table: a computer player's bid or card, a finished trick; as long as the speed setting says.
function pauseFor(kind) {
  if (queue.length > CATCH_UP) return 0;
  return DELAYS[kind] * scale * SPEEDS[settings.speed].factor;
}
const sleep = (kind) => {
  const ms = pauseFor(kind);
  root.dataset.lastPause = `${kind} ${Math.round(ms * 1000) / 1000}`; // for tests and tools: the pause just taken
  return new Promise((resolve) => setTimeout(resolve, ms));
};

let socket = null;
let retries = 0;
let state = null;
let queue = [];
let pumping = false;
let redrawOwed = false; // the screen changed while moves were being played back: draw the table again after them
let awaitingReply = false;
let hint = null;
let shownTrick = new Set();
let noticeTimer = null;

// ------------------------------------------------------------------ connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const watch = root.dataset.watch; // a spectator's page (the watch link): the public view, no seat
  const name = new URLSearchParams(location.search).get("name") || localStorage.getItem("ohhell-name") || "";
  const path = watch ? `/ws/watch/${watch}?name=${encodeURIComponent(name)}` : `/ws/games/${gameId}`;
  socket = new WebSocket(`${scheme}://${location.host}${path}`);
  socket.addEventListener("open", () => {
    retries = 0;
    queue = [];
    latest = null;
    awaitingReply = false;
    $("connection").hidden = true;
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    const box = $("connection");
    box.hidden = false;
    if (event.code === SIGNED_OUT) {
      // the session ended (signed out, a new password, the account deleted): reconnecting would not help
      box.textContent = "Signed out: this table no longer plays for you here. Sign in again, then reload the page.";
      root.dataset.signedOut = "true";
      return;
    }
    if (event.code === TURNED_AWAY) {
      // too many tabs of this seat, sockets of this address, or spectators: reconnecting would be turned away too
      box.textContent = event.reason || "The server turned this page away: close other tabs, then reload.";
      return;
    }
    box.textContent = "Connection lost: reconnecting…";
    setTimeout(connect, Math.min(4000, 250 * 2 ** retries++));
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    notice("Not connected: reconnecting, try again in a moment.", "error");
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

// A move on the table as it is shown, once every message received is on show (a move on a picture with more to
// play back would be refused as stale); the controls that sent it are held until the answer is shown.
function move(message) {
  if (awaitingReply || queue.length || !state) return;
  if (send({ ...message, seq: state.seq, deal: state.deal.index })) {
    awaitingReply = true;
    holdControls();
    clearTimeout(automatic);
    markIdle();
    hint = null;
    clearNotice();
  }
}

// Until the server answers a move: the panel's buttons disabled, the hand no longer offered (a second click does
// nothing). The answer redraws the table, or an error gives the controls back (release).
function holdControls() {
  for (const button of $("center-panel").querySelectorAll("button")) button.disabled = true;
  $("hand").classList.remove("your-turn");
  for (const card of $("hand").querySelectorAll(".hand-card")) card.setAttribute("aria-disabled", "true");
}

function releaseControls() {
  if (state && !queue.length) render(state);
}

// data-idle: the table has caught up with the server; data-version: the moment it shows. For tests and tools.
function markIdle() {
  root.dataset.idle = String(!pumping && queue.length === 0 && !awaitingReply);
  if (state) root.dataset.version = `${state.seq}:${state.deal.index}`;
}

// The state after a message, as ohhell.server.table.snapshot.merge computes it: an action's changes laid over the state.
function merge(before, message) {
  if (message.type === "state") return message;
  const changes = message.changes;
  const after = {
    ...before,
    seq: message.seq + 1,
    game: { ...before.game, ...(changes.game || {}) },
    deal: { ...before.deal, ...(changes.deal || {}) },
    sheet: { ...before.sheet, ...(changes.sheet || {}) },
  };
  if (message.why) after.deal.reasons = [...before.deal.reasons, message.why];
  return after;
}

let latest = null; // the state after every message received so far (the table shows `state`, which may lag)

// Other scripts of the page (the club's, /static/club/table.js) hear every message and may send their own.
document.addEventListener("ohhell:send", (event) => send(event.detail));

function receive(message) {
  document.dispatchEvent(new CustomEvent("ohhell:message", { detail: message }));
  if (message.type === "state" || message.type === "action") {
    awaitingReply = false;
    if (message.type === "action" && !latest) return; // a change without a state to lay it over: a state follows
    latest = merge(latest, message);
    queue.push({ message, after: latest });
    pump();
  } else if (message.type === "notice") {
    // "saving-failed" stays until "saved" replaces it; an undo done is news, not an error
    notice(message.message, INFO_NOTICES.has(message.code) ? "info" : "error", message.code === "saving-failed");
  } else if (message.type === "people") {
    onPeople(message);
  } else if (message.type === "chat") {
    onChat(message);
  } else if (message.type === "moved") {
    moveTo(message.url);
  } else if (message.type === "error" && chatRefused(message)) {
    markIdle();
  } else if (message.type === "error") {
    const held = awaitingReply;
    awaitingReply = false;
    markIdle();
    if (held) releaseControls();
    notice(message.message, "error");
  } else if (message.type === "hint") {
    showHint(message);
  } else if (message.type === "hands") {
    showHands(message);
  }
}

async function pump() {
  if (pumping) return;
  pumping = true;
  markIdle();
  try {
    while (queue.length) {
      const { message, after } = queue.shift();
      if (message.type === "state") {
        announceState(state, after);
        render(after);
      } else await playBack(message, after);
    }
  } finally {
    pumping = false;
    if (redrawOwed && state) render(state); // before the table says it has caught up
    redrawOwed = false;
    markIdle();
    scheduleAutomatic();
  }
}

async function playBack(event, after) {
  announceAction(state, after, event);
  soundsFor(state, after);
  const verb = event.action.split(" ")[0];
  if (verb === "play" && event.trick) {
    render(after, event.trick);
    playSound("trick", settings.sounds, event.trick.winner === after.game.you);
    await sleep("card");
    $("trick-note").textContent = event.trick.sentence;
    markTrickWinner(event.trick.winner);
    await sleep("trick");
    $("trick-note").textContent = "";
    render(after);
  } else {
    render(after);
    await sleep(verb === "play" ? "card" : "bid");
  }
}

// ------------------------------------------------------------------ rendering

// The sealed deal: its commitment, and the number once it may be told (seal.js).
function renderSeal(game) {
  const seal = game.commitment;
  if (!seal) return;
  const chooser = seal.chooser === null ? "" : seal.chooser === game.you ? "you" : game.players[seal.chooser].name;
  showSeal(seal, $("seal"), $("deal-number"), chooser, game.over);
  $("replay-button").disabled = !game.over; // its cards are played again once the series is over (as practice)
}

// Draw the table again as it is (the screen or a setting changed); while moves are being played back, once they are
// (each playback draws the table at the size of its moment, and a change during its pause would otherwise be lost).
function redraw() {
  if (!state) return;
  if (pumping) redrawOwed = true;
  else render(state);
}

function render(message, completedTrick = null) {
  const remembered = playFocus();
  state = message;
  const { game, deal } = message;
  renderSeal(game);
  $("hand-title").textContent = deal.title;
  $("trump-text").textContent = deal.trump_text;
  $("bid-bar").textContent = deal.bar;
  // the draw for the first deal (when the rules draw: the page has it), told through the first hand
  if ($("draw-note")) $("draw-note").hidden = deal.index !== 0;
  $("status").textContent = game.over ? "Game over." : deal.status;
  $("status").classList.toggle("your-turn", deal.my_turn && !game.waiting_for_next && !game.over);
  renderTurnUp(deal);
  renderPlates(game, deal);
  renderTrick(game, deal, completedTrick);
  const panelTarget = renderCenter(game, deal, completedTrick !== null);
  const cardTarget = renderHand(game, deal);
  renderSheet(game, message.sheet);
  renderTools(game, deal);
  $("result").textContent = game.result || "";
  decorate(message); // a table of several people: who is a person, connected, played for (people.js)
  followPlay(remembered, panelTarget || cardTarget, momentOf(game, deal, completedTrick !== null));
  fitFelt($("felt"), $("felt").closest(".table-area"));
  fitSide();
  if (game.over) document.dispatchEvent(new CustomEvent("ohhell:game-over", { detail: { game: $("game").dataset.game } }));
}

function renderPlates(game, deal) {
  const sides = { left: $("plates-left"), top: $("plates-top"), right: $("plates-right") };
  for (const box of Object.values(sides)) box.replaceChildren();
  const players = game.players.length;
  $("my-plate").hidden = game.you < 0; // a spectator has no seat of their own
  if (game.you >= 0) renderPlate($("my-plate"), game, deal, game.you);
  for (const seat of seatsAround(game.you, players)) {
    const side = seatSide(seat, game.you, players);
    const node = renderPlate(el("section", "plate"), game, deal, seat);
    if (side === "left") sides.left.prepend(node);
    else sides[side].append(node);
  }
}

function renderPlate(node, game, deal, seat) {
  const player = game.players[seat];
  const plate = deal.plates[seat];
  const mine = seat === game.you;
  const toAct = deal.to_act === seat && !deal.finished && !game.waiting_for_next && !game.over;
  node.replaceChildren();
  node.classList.toggle("to-act", toAct);
  node.dataset.seat = seat;
  // the plate read as one line: "Ann, dealer: bid 2, won 1, needs 1 more, 3 cards, thinking"
  const cardsLeft = mine ? "" : `, ${plate.cards_left} card${plate.cards_left === 1 ? "" : "s"}`;
  const acting = toAct ? (mine ? ", your turn" : ", thinking") : "";
  const named = `${mine ? "You" : player.name}${seat === deal.dealer ? ", dealer" : ""}`;
  node.setAttribute("aria-label", `${named}: ${plateWords(plate)}${cardsLeft}${acting}`);
  const name = el("h3", "plate-name", mine && player.name !== "You" ? `${player.name} (you)` : player.name);
  if (player.level) name.append(el("span", "level", levelName(player.level)));
  if (seat === deal.dealer) {
    const chip = el("span", "dealer-chip", "D");
    chip.title = "Dealer";
    chip.setAttribute("aria-label", "dealer");
    name.prepend(chip);
  }
  node.append(name, el("p", "plate-line", plate.line));
  const line = mine ? node : el("div", "plate-state");
  if (plate.label) line.append(el("p", `plate-label ${labelTone(plate.label)}`, plate.label));
  if (!mine) {
    const cards = el("p", "plate-cards");
    cards.append(cardBack(""), el("span", "", `${plate.cards_left} card${plate.cards_left === 1 ? "" : "s"}`));
    line.append(cards);
    node.append(line);
  }
  if (toAct && !game.over) node.append(el("p", "turn-chip", mine ? "Your turn" : "Thinking…"));
  return node;
}

function levelName(level) {
  return { easy: "Easy", normal: "Normal", hard: "Hard" }[level] || level;
}

function labelTone(label) {
  if (label.startsWith("Needs")) return "needs";
  if (label === "On track") return "track";
  return label === "Made it" ? "made" : "over";
}

function renderTurnUp(deal) {
  const box = $("turn-up");
  box.replaceChildren();
  if (deal.turn_up) box.append(cardPicture(deal.turn_up, `Turned up: ${cardName(deal.turn_up)}`));
  const label = el("p", "turn-up-label");
  label.append(el("span", "turn-up-title", "Trump"), el("span", `turn-up-suit suit-${deal.trump || "none"}`, suitLabel(deal.trump)));
  box.append(label);
}

function renderTrick(game, deal, completed) {
  const list = $("trick");
  list.replaceChildren();
  // once the game is over (given up mid-trick) the unfinished trick is not left behind the Game over panel
  const cards = completed ? completed.cards : game.over ? [] : deal.trick;
  const players = game.players.length;
  const [spreadX, spreadY] = [56, 52];
  const now = new Set();
  for (const { seat, card } of cards) {
    const key = `${deal.index}:${seat}:${card}`;
    now.add(key);
    const where = placeOf(seat, game.you, players);
    const item = el("li", "trick-card");
    item.dataset.seat = seat;
    item.dataset.card = card;
    item.style.left = `${50 + (where.x - 0.5) * spreadX}%`;
    item.style.top = `${50 + (where.y - 0.5) * spreadY}%`;
    item.style.setProperty("--from-x", `${(where.x - 0.5) * 160}%`);
    item.style.setProperty("--from-y", `${(where.y - 0.5) * 160}%`);
    if (!shownTrick.has(key)) item.classList.add("arrive");
    if (!completed && deal.winning === seat && cards.length > 1) item.classList.add("winning");
    const who = seat === game.you ? "You" : game.players[seat].name;
    item.append(cardPicture(card, `${who}: ${cardName(card)}`));
    list.append(item);
  }
  shownTrick = now;
}

function markTrickWinner(winner) {
  for (const item of $("trick").children) item.classList.toggle("won", Number(item.dataset.seat) === winner);
}

function renderCenter(game, deal, trickOnShow) {
  const panel = $("center-panel");
  panel.replaceChildren();
  panel.className = "center-panel";
  panel.removeAttribute("aria-label");
  let focusTarget = null;
  if (trickOnShow) {
    panel.hidden = true;
    return null;
  } else if (game.over || game.waiting_for_next) {
    focusTarget = handOverPanel(panel, game, deal);
  } else if (deal.my_turn && deal.phase === "bidding") {
    focusTarget = biddingPanel(panel, game, deal);
  } else if (deal.my_turn && deal.phase === "choosing-trump") {
    focusTarget = trumpPanel(panel);
  } else if (deal.changes.length && deal.trick.length === 0) {
    changePanel(panel, deal);
  } else {
    panel.hidden = true;
    return null;
  }
  panel.hidden = false;
  // The panel itself takes the focus, not its first button, so that a stray Enter bids nothing; Tab goes on to
  // the buttons. The end of a hand focuses Next hand, which Enter should press.
  if (!focusTarget) return null;
  return panel.classList.contains("hand-over") ? focusTarget : panel;
}

function biddingPanel(panel, game, deal) {
  panel.classList.add("bidding");
  panel.setAttribute("aria-label", "Your bid");
  const head = el("p", "panel-head");
  head.append(el("strong", "panel-title", "Your bid"), el("span", "panel-bar", deal.bar));
  panel.append(head);
  const sofar = game.players
    .map((player, seat) => (deal.plates[seat].bid === null ? null : `${seat === game.you ? "You" : player.name} ${deal.plates[seat].bid}`))
    .filter(Boolean);
  panel.append(el("p", "bids-so-far", sofar.length ? `Bids so far: ${sofar.join(" · ")}` : "You bid first."));
  const group = el("div", "bid-buttons");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", "Your bid");
  let first = null;
  for (const option of deal.bids) {
    const button = el("button", "bid-button");
    button.type = "button";
    button.dataset.bid = option.bid;
    button.append(el("span", "bid-number", String(option.bid)));
    if (option.allowed) {
      button.setAttribute("aria-label", `Bid ${option.bid}`);
      button.addEventListener("click", () => move({ type: "bid", bid: option.bid }));
      first = first || button;
    } else {
      button.disabled = true;
      button.classList.add("forbidden");
      button.append(el("span", "not-allowed", "Not allowed"));
      button.setAttribute("aria-label", `Bid ${option.bid}: not allowed`);
      button.setAttribute("aria-describedby", "forbidden-reason");
    }
    if (hint && hint.bid === option.bid) button.classList.add("hinted");
    group.append(button);
  }
  panel.append(group);
  if (deal.forbidden_reason) {
    const reason = el("p", "forbidden-reason", deal.forbidden_reason);
    reason.id = "forbidden-reason";
    panel.append(reason);
  }
  return first;
}

function trumpPanel(panel) {
  panel.classList.add("bidding");
  panel.append(el("h2", "panel-title", "Choose trump"));
  panel.append(el("p", "panel-bar", "A Magician was turned up: as the dealer you name trump before the bidding."));
  const group = el("div", "bid-buttons");
  let first = null;
  for (const suit of state.deal.trumps) {
    const button = el("button", `bid-button suit-${suit}`, `${SUIT_SYMBOLS[suit]}`);
    button.type = "button";
    button.setAttribute("aria-label", `Trump: ${suitLabel(suit)}`);
    button.addEventListener("click", () => move({ type: "trump", suit }));
    group.append(button);
    first = first || button;
  }
  panel.append(group);
  return first;
}

function changePanel(panel, deal) {
  panel.classList.add("change");
  panel.append(el("p", "panel-bar", "You may still change your bid:"));
  const group = el("div", "bid-buttons small");
  for (const n of deal.changes) {
    const button = el("button", "bid-button", String(n));
    button.type = "button";
    button.setAttribute("aria-label", `Change your bid to ${n}`);
    button.addEventListener("click", () => move({ type: "change", bid: n }));
    group.append(button);
  }
  panel.append(group);
}

function handOverPanel(panel, game, deal) {
  panel.classList.add("hand-over");
  panel.classList.toggle("game-over", game.over);
  panel.append(el("h2", "panel-title", game.over ? "Game over" : `${deal.title.split(" ·")[0]} is over`));
  if (game.result) panel.append(el("p", "panel-result", game.result));
  const table = el("table", "hand-result");
  table.append(el("caption", "sr-only", `Result of ${deal.title}`));
  const head = el("thead");
  const headRow = el("tr");
  for (const title of ["", "Bid/won", "Points", "Total"]) headRow.append(el("th", "", title));
  head.append(headRow);
  const body = el("tbody");
  const row = state.sheet.rows[deal.index];
  game.players.forEach((player, seat) => {
    const plate = deal.plates[seat];
    const tr = el("tr");
    const made = plate.bid === plate.won;
    const points = row ? row.cells[seat].points : 0;
    const winner = game.winners && game.winners.includes(seat);
    tr.append(el("th", "", seat === game.you ? "You" : player.name));
    tr.append(el("td", made ? "made" : "missed", `${plate.bid}/${plate.won}${made ? " ✓" : ""}`));
    tr.append(el("td", "points", `${points > 0 ? "+" : ""}${points}`));
    tr.append(el("td", `total${winner ? " winner" : ""}`, `${winner ? "★ " : ""}${state.sheet.totals[seat]}`));
    body.append(tr);
  });
  table.append(head, body);
  panel.append(table);
  const actions = el("div", "panel-actions");
  if (deal.finished) {
    const show = el("button", "button", "Show All Hands");
    show.type = "button";
    show.addEventListener("click", () => send({ type: "show_hands", deal: deal.index }));
    actions.append(show);
  }
  let primary;
  if (game.over) {
    const together = playAgainControls(); // a shared table: Play again, the same people in a new game (people.js)
    const replay = el("button", "button replay-deal", together ? "Play these cards again (solo)" : "Play these cards again");
    replay.type = "button";
    replay.title = "A new game of your own against computer players, with these cards";
    replay.addEventListener("click", askReplay);
    const newGame = el("a", together ? "button" : "button primary", "New game");
    newGame.href = "/";
    actions.append(replay, newGame);
    primary = newGame;
    if (together) {
      actions.append(together.button);
      panel.append(actions, together.note);
      return together.button;
    }
  } else {
    primary = el("button", "button primary", "Next hand");
    primary.type = "button";
    primary.id = "next-hand";
    primary.addEventListener("click", nextHand);
    actions.append(primary);
  }
  panel.append(actions);
  if (!game.over) {
    const note = el("p", "auto-next-note", "");
    note.id = "auto-next-note";
    panel.append(note);
  }
  return primary;
}

function renderHand(game, deal) {
  const box = $("hand");
  box.replaceChildren();
  const canPlay = deal.my_turn && deal.phase === "playing" && !game.waiting_for_next && !game.over;
  box.classList.toggle("your-turn", canPlay);
  let first = null;
  const buttons = [];
  for (const card of settings.sortBySuit ? sortHand(deal.hand, deal.trump) : deal.hand) {
    const button = el("button", "hand-card");
    button.type = "button";
    button.dataset.card = card;
    const playable = canPlay && deal.playable.includes(card);
    button.classList.add(playable ? "playable" : "unplayable");
    button.setAttribute("aria-label", cardLabel(card));
    if (!playable) button.setAttribute("aria-disabled", "true");
    if (hint && hint.card === card) button.classList.add("hinted");
    button.append(cardPicture(card, ""));
    button.addEventListener("click", () => {
      if (playable) move({ type: "play", card });
      else notice(deal.unplayable[card] || "That card cannot be played now.", "error");
    });
    buttons.push(button);
    if (playable && !first) first = button;
  }
  layOutHand(box, buttons);
  return first;
}

// ------------------------------------------------------------------ the focus follows the play

let focusMoment = null; // what the person was asked to do when the focus was last placed

// Which kind of moment the table shows: a new one moves the focus to where the play now is.
function momentOf(game, deal, trickOnShow) {
  return [deal.index, deal.phase, deal.my_turn, game.waiting_for_next, game.over, trickOnShow].join(":");
}

// Where a control is in the play (your hand, the panel of the table), to find the same one after the table is
// drawn again; null for a control elsewhere (the chat, the toolbar, the score sheet).
function placeInPlay(node) {
  if (node === $("main")) return "#main"; // where the focus rests when there is nothing to do
  if (!node || !($("hand").contains(node) || $("center-panel").contains(node))) return null;
  if (node.dataset.card) return `#hand [data-card="${node.dataset.card}"]`;
  if (node.dataset.bid) return `#center-panel [data-bid="${node.dataset.bid}"]`;
  if (node.id) return `#${node.id}`;
  return node === $("hand") ? "#hand" : "#center-panel";
}

// The place in the play the focus was last on outside a dialog: a dialog gives the focus back to the control that
// opened it, which may have been drawn again (so taken out) while the dialog was open.
let lastInPlay = null;
document.addEventListener("focusin", (event) => {
  if (!event.target.closest?.("dialog")) lastInPlay = placeInPlay(event.target);
});

// Where the focus is in the play, or was when it got lost; null when it is elsewhere.
function playFocus() {
  return focusLost() ? lastInPlay : placeInPlay(document.activeElement);
}

// Whether the focus is on nothing a person can see: the body, a control taken out, one hidden (in a closed dialog).
function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || !active.checkVisibility();
}

const usable = (node) => node && node.isConnected && node.checkVisibility() && !node.disabled;

// Focus goes where the play goes: to the bidding panel on your bid, to a card you may play on your card, to Next
// hand or the Game over panel when a hand ends; within one moment, back to the control it was on. It is moved only
// from the play itself or when it was lost with what it was on, never from the chat or the toolbar; with nothing
// to do it rests on your hand (a spectator's on the page), never on the body.
function followPlay(remembered, target, moment) {
  const changed = moment !== focusMoment;
  focusMoment = moment;
  if (!focusLost() && !remembered) return;
  const again = remembered ? document.querySelector(remembered) : null;
  const rest = $("hand").querySelector(".hand-card") ? $("hand") : $("main");
  const place = [changed ? null : again, target, again, rest].find(usable);
  if (place && place !== document.activeElement) place.focus({ preventScroll: true });
}

function renderSheet(game, sheet) {
  const table = el("table", "sheet");
  const head = el("thead");
  const headRow = el("tr");
  headRow.append(el("th", "hand-col", "Hand"));
  game.players.forEach((player, seat) => {
    const th = el("th", "", seat === game.you ? "You" : player.name);
    th.scope = "col";
    if (game.winners && game.winners.includes(seat)) th.classList.add("winner");
    headRow.append(th);
  });
  head.append(headRow);
  const body = el("tbody");
  const rowHead = (row) => {
    const th = el("th", "hand-col");
    th.scope = "row";
    th.append(el("span", "hand-no", String(row.hand)));
    th.append(el("span", "hand-meta", `${row.cards} ${row.cards === 1 ? "card" : "cards"}${row.trump ? " " + SUIT_SYMBOLS[row.trump] : ""}`));
    return th;
  };
  for (const row of sheet.rows) {
    const tr = el("tr");
    tr.append(rowHead(row));
    for (const cell of row.cells) {
      const td = el("td", cell.made ? "made" : "missed");
      td.append(el("span", "bid-won", `${cell.bid}/${cell.won}${cell.made ? " ✓" : ""}`));
      td.append(el("span", "points", String(cell.points)));
      td.append(el("span", "running", String(cell.total)));
      td.setAttribute("aria-label", `bid ${cell.bid}, won ${cell.won}${cell.made ? ", made it" : ""}: ${cell.points} points, ${cell.total} in all`);
      tr.append(td);
    }
    body.append(tr);
  }
  if (sheet.current) {
    const tr = el("tr", "current");
    tr.append(rowHead(sheet.current));
    for (const cell of sheet.current.cells) {
      const playing = state.deal.phase !== "bidding" && state.deal.phase !== "choosing-trump";
      tr.append(el("td", "", cell.bid === null ? "–" : playing ? `${cell.bid}/${cell.won}` : `${cell.bid}/–`));
    }
    body.append(tr);
  }
  const foot = el("tfoot");
  const footRow = el("tr");
  footRow.append(el("th", "hand-col", "Total"));
  sheet.totals.forEach((total, seat) => {
    const td = el("td", "", String(total));
    if (game.winners && game.winners.includes(seat)) {
      td.classList.add("winner");
      td.textContent = `★ ${total}`;
      td.setAttribute("aria-label", `${total}, winner`);
    }
    footRow.append(td);
  });
  foot.append(footRow);
  table.append(head, body, foot);
  const scroller = $("sheet");
  const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
  scroller.replaceChildren(table);
  if (atBottom) scroller.scrollTop = scroller.scrollHeight;
}

function renderTools(game, deal) {
  const live = !game.over && !game.waiting_for_next;
  $("hint-button").disabled = !(live && deal.my_turn);
  $("last-trick-button").disabled = !deal.last_trick;
  $("hands-button").disabled = !deal.finished;
  $("resign-button").disabled = game.over;
}

// ------------------------------------------------------------------ what the table does by itself

let automatic = null; // the forced card or the next hand, waiting to be done for the person

// Once the table has caught up: play a forced card (the only one you may play) for you, or start the next hand
// a few seconds after one is over, when the settings say so. Anything the person does first cancels it.
function scheduleAutomatic() {
  clearTimeout(automatic);
  automatic = null;
  const note = $("auto-next-note");
  if (note) note.textContent = "";
  if (!state || pumping || queue.length || awaitingReply) return;
  const { game, deal } = state;
  if (settings.forcedCard && playing(game, deal) && deal.playable.length === 1) {
    const card = deal.playable[0];
    automatic = setTimeout(() => {
      if (state && playing(state.game, state.deal) && state.deal.playable.length === 1) {
        say(`Your only card, the ${cardName(card)}, is played for you.`);
        move({ type: "play", card });
      }
    }, pauseFor("card"));
  } else if (settings.autoNext && game.waiting_for_next) {
    const seconds = AUTO_NEXT_SECONDS * Math.max(scale, 0.01);
    if (note) note.textContent = `The next hand starts by itself in ${AUTO_NEXT_SECONDS} seconds.`;
    automatic = setTimeout(() => {
      if (!document.querySelector("dialog[open]")) nextHand();
    }, seconds * 1000);
  }
}

function playing(game, deal) {
  return deal.my_turn && deal.phase === "playing" && !game.waiting_for_next && !game.over;
}

function nextHand() {
  if (!state || !state.game.waiting_for_next || awaitingReply) return false;
  if (send({ type: "next", deal: state.game.next_deal })) {
    awaitingReply = true;
    markIdle();
  }
  return true;
}

// The sounds of a change of state: your turn has come, a hand is over.
function soundsFor(before, after) {
  if (!before || !after) return;
  const wasMine = before.deal.my_turn && !before.game.waiting_for_next;
  const isMine = after.deal.my_turn && !after.game.waiting_for_next && !after.game.over;
  if (isMine && !wasMine) playSound("turn", settings.sounds);
  if (after.deal.finished && !before.deal.finished) playSound("hand", settings.sounds);
}

// ------------------------------------------------------------------ messages to the person

function notice(text, kind, sticky = false) {
  const box = $("notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  clearTimeout(noticeTimer);
  if ((kind === "error" || kind === "info") && !sticky) noticeTimer = setTimeout(clearNotice, 6000);
}

function clearNotice() {
  $("notice").textContent = "";
  $("notice").className = "notice";
}

function showHint(message) {
  hint = message;
  const numbers = message.details || [];
  const box = $("notice");
  box.replaceChildren();
  box.className = "notice hint";
  clearTimeout(noticeTimer);
  const head = el("p", "hint-head");
  head.append(el("strong", "", "Hint: "), document.createTextNode(message.text));
  const close = el("button", "notice-close", "✕");
  close.type = "button";
  close.setAttribute("aria-label", "Close the hint");
  close.addEventListener("click", clearNotice);
  box.append(close, head);
  if (numbers.length) {
    const details = el("details", "hint-numbers");
    details.append(el("summary", "", "The numbers behind it"));
    for (const line of numbers) details.append(el("p", "", line));
    box.append(details);
  }
  if (state) render(state);
}

function showWhy() {
  const list = $("why-list");
  list.replaceChildren();
  const reasons = state ? [...state.deal.reasons].reverse() : [];
  if (!reasons.length) list.append(el("li", "empty", "No computer player has acted yet this hand."));
  for (const entry of reasons) {
    const item = el("li");
    item.append(el("strong", "", entry.sentence));
    item.append(whyBadge(entry.seat));
    item.append(el("p", "", entry.reason));
    list.append(item);
  }
  $("why-dialog").showModal();
}

// Who gave a reason in Why?: a computer player's level, or a computer player playing for an absent person.
function whyBadge(seat) {
  const player = state.game.players[seat];
  return el("span", "level", player.level ? levelName(player.level) : `Computer playing for ${player.name}`);
}

function showLastTrick() {
  const trick = state && state.deal.last_trick;
  if (!trick) return;
  const list = $("last-trick-cards");
  list.replaceChildren();
  for (const { seat, card } of trick.cards) {
    const item = el("li", seat === trick.winner ? "won" : "");
    const who = seat === state.game.you ? "You" : state.game.players[seat].name;
    item.append(cardPicture(card, `${who}: ${cardName(card)}`), el("span", "", who));
    list.append(item);
  }
  $("last-trick-note").textContent = `${trick.sentence}.`;
  $("last-trick-dialog").showModal();
}

function showHands(message) {
  const box = $("hands-list");
  box.replaceChildren();
  $("hands-title").textContent = `All hands: ${message.title}`;
  if (message.turn_up) {
    const turned = el("p", "turned");
    turned.append(el("span", "", `Turned up: ${cardName(message.turn_up)}`));
    box.append(turned);
  }
  message.players.forEach((player, seat) => {
    const section = el("section", "all-hand");
    const name = seat === state.game.you ? "You" : player.name;
    const points = `${player.points} point${Math.abs(player.points) === 1 ? "" : "s"}`;
    section.append(el("h3", "", `${name}: bid ${player.bid}, won ${player.won}, ${points}`));
    const cards = el("ul", "mini-hand");
    cards.setAttribute("aria-label", `${name} held`);
    for (const card of player.hand) {
      const item = el("li");
      item.append(cardPicture(card, cardName(card)));
      cards.append(item);
    }
    section.append(cards);
    box.append(section);
  });
  $("hands-dialog").showModal();
}

// "Play these cards again" is a game of one's own against computer players: at once after a game of one's own;
// first a question that says so at a shared table, or while the game is still being played.
const PRACTICE = " You know its number, so it is practice: it earns no XP, statistics, rating or club win.";
const REPLAY_SHARED =
  "A new game of your own against computer players starts, with these cards: the same deal number and rules, " +
  "computer players in your friends' seats." +
  PRACTICE +
  " Your friends stay at this table; to play on with them, press Play again.";
const REPLAY_ALONE =
  "A new game starts with the same deal number, rules and players, so the same cards are dealt." +
  PRACTICE +
  " This game stays in your games.";

// Once the series is over (before, its number would deal every hand still to come): say that it is practice.
function askReplay() {
  if (!state || !state.game.over) return;
  $("replay-text").textContent = currentPeople() !== null ? REPLAY_SHARED : REPLAY_ALONE;
  $("replay-dialog").showModal();
}

async function replayDeal() {
  const response = await fetch(`/api/games/${gameId}/replay-deal`, { method: "POST" });
  if (response.ok) window.location.assign((await response.json()).url);
  else notice((await response.json().catch(() => ({}))).detail || "The deal could not be replayed.", "error");
}

$("hint-button").addEventListener("click", () => send({ type: "hint" }));
$("why-button").addEventListener("click", showWhy);
$("last-trick-button").addEventListener("click", showLastTrick);
$("hands-button").addEventListener("click", () => state && send({ type: "show_hands", deal: state.deal.index }));
// A new game with the same cards, once the series is over: after saying that it is practice.
$("replay-button").addEventListener("click", askReplay);
$("replay-dialog").addEventListener("close", () => {
  if ($("replay-dialog").returnValue === "replay") replayDeal();
});
$("resign-button").addEventListener("click", () => state && !state.game.over && $("resign-dialog").showModal());
$("resign-dialog").addEventListener("close", () => {
  if ($("resign-dialog").returnValue === "resign" && state && !state.game.over) {
    send({ type: "resign", seq: state.seq });
  }
});
$("settings-button").addEventListener("click", () => $("settings-dialog").showModal());
bindSettingsDialog($("settings-dialog"), settings, (name) => {
  if (name === "speed") setAnimationScale();
  applyAppearance(settings);
  redraw();
  if (name === "forcedCard" || name === "autoNext") scheduleAutomatic();
});
$("keys-button").addEventListener("click", showKeys);

function showKeys() {
  fillKeyList($("keys-list"));
  $("keys-dialog").showModal();
  return true;
}

installKeys({
  bids: () => (state && state.deal.my_turn && state.deal.phase === "bidding" && !state.game.waiting_for_next
    ? state.deal.bids.filter((option) => option.allowed).map((option) => option.bid)
    : []),
  maxBid: () => (state ? state.deal.size : 0),
  bid: (n) => move({ type: "bid", bid: n }),
  cards: () => [...document.querySelectorAll("#hand .hand-card")],
  next: nextHand,
  hint: () => {
    if ($("hint-button").disabled) return false;
    send({ type: "hint" });
    return true;
  },
  why: () => {
    showWhy();
    return true;
  },
  lastTrick: () => {
    if (!state || !state.deal.last_trick) return false;
    showLastTrick();
    return true;
  },
  readOut: (letter) => readOut(letter, state),
  help: showKeys,
});
initPeople({ send });
initChat({ send });
placeNotice($("notice"));
new ResizeObserver(fitSide).observe($("people")); // the people panel grows: chat lines, who is watching
connect();
window.addEventListener("resize", redraw);
// A dialog gives the focus back to the control that opened it; if the table was drawn again meanwhile, that
// control is gone and the focus would fall to the body: draw the table again, which places it (followPlay).
for (const dialog of document.querySelectorAll("dialog")) {
  dialog.addEventListener("close", () => {
    if (state && !pumping && focusLost()) render(state);
  });
}

// The More menu closes when one of its items is used, on Escape and on a click elsewhere.
const toolMenu = $("tool-menu");
toolMenu.addEventListener("click", (event) => {
  if (event.target.closest(".tool-menu-items .tool")) toolMenu.open = false;
});
toolMenu.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && toolMenu.open) {
    toolMenu.open = false;
    toolMenu.querySelector("summary").focus();
  }
});
document.addEventListener("click", (event) => {
  if (toolMenu.open && !toolMenu.contains(event.target)) toolMenu.open = false;
});
