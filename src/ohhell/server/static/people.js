// A table of several people: the waiting room, the name plates' person/computer/connected marks and the thinking
// clock, who is watching, the host's tools, Play again. Everything here comes from the socket's "people" messages
// (ohhell.server.party.live); game.js calls onPeople() with each one and decorate() after it draws the plates.

import { fitFelt } from "./layout.js";

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

let people = null;
let send = () => false;
let table = null; // the last state drawn, for whose turn it is
let turnKey = null;
let turnStart = 0;

export function initPeople(options) {
  send = options.send;
  $("start-game").addEventListener("click", () => send({ type: "start", fill: false }));
  $("start-filled").addEventListener("click", () => send({ type: "start", fill: true }));
  $("renew-invite").addEventListener("click", () => send({ type: "renew", link: "join" }));
  $("copy-invite").addEventListener("click", () => copy($("invite-link")));
  $("copy-watch").addEventListener("click", () => copy($("watch-link")));
  $("watcher-name-form").addEventListener("submit", renameSpectator);
  $("spectator-chat").addEventListener("change", (event) => send({ type: "spectator_chat", open: event.target.checked }));
  $("hand-over").addEventListener("click", () => {
    const seat = Number($("hand-over-seat").value);
    const name = people && people.seats[seat] ? people.seats[seat].name : "";
    if (name && window.confirm(`Give ${name}'s seat to a computer player for the rest of the game?`)) {
      send({ type: "hand_over", seat });
    }
  });
  setInterval(tick, 1000);
}

let moving = false;

// Play again started a new game: go there (once, whether the "moved" or the "people" message says it first). A
// spectator goes to the new game's watch link, under the same name.
export function moveTo(url) {
  if (moving) return;
  moving = true;
  location.assign($("game").dataset.watch ? withName(url, spectatorName()) : url);
}

// A spectator's name: the one in the watch link (?name=), else the one last given in this browser.
function spectatorName() {
  return new URLSearchParams(location.search).get("name") || localStorage.getItem("ohhell-name") || "";
}

function withName(url, name) {
  return name ? `${url}?name=${encodeURIComponent(name)}` : url;
}

// A spectator chooses the name the table sees (kept in this browser); the page comes back under it.
function renameSpectator(event) {
  event.preventDefault();
  const name = $("watcher-name").value.trim();
  if (!name) return;
  localStorage.setItem("ohhell-name", name);
  location.assign(withName(location.pathname, name));
}

export function currentPeople() {
  return people;
}

function copy(input) {
  input.select();
  navigator.clipboard?.writeText(input.value).catch(() => {});
}

function absolute(path) {
  return path ? `${location.origin}${path}` : "";
}

export function onPeople(message) {
  people = message;
  const root = $("game");
  const waiting = message.status === "waiting";
  const shown = root.classList.contains("waiting") !== waiting;
  root.classList.toggle("waiting", waiting);
  root.classList.add("party");
  root.dataset.people = message.status;
  const resignText = document.querySelector("#resign-dialog p");
  if (resignText) {
    resignText.textContent =
      "You leave the table: a computer player plays your seat to the end, the game counts as a loss for you, and the others play on.";
  }
  $("people").hidden = false;
  $("waiting-room").hidden = !waiting;
  const host = message.you === message.host;
  const watcher = message.you < 0;
  root.classList.toggle("watcher", watcher);
  $("watcher-name-form").hidden = !watcher;
  if (watcher && document.activeElement !== $("watcher-name")) $("watcher-name").value = spectatorName();
  if (waiting) renderWaiting(message, host);
  else if (shown) fitFelt($("felt"), $("felt").closest(".table-area")); // the table, hidden until now, fits the screen
  $("watch-line").hidden = !message.watch;
  $("watch-link").value = absolute(message.watch);
  $("watching").textContent = message.watching.length ? `Watching: ${message.watching.join(", ")}` : "";
  $("spectator-chat").checked = message.settings.spectator_chat;
  const gameTools = host && !waiting && !message.over;
  $("host-game-tools").hidden = !gameTools;
  if (gameTools) {
    const select = $("hand-over-seat");
    const keep = select.value;
    select.replaceChildren();
    for (const seat of message.seats) {
      if (seat.kind === "person" && !seat.gone && seat.seat !== message.you) {
        const option = el("option", "", seat.name);
        option.value = String(seat.seat);
        select.append(option);
      }
    }
    if (keep) select.value = keep;
  }
  showAgain($("play-again"), $("again-note"));
  if (message.moved_to) moveTo(message.moved_to);
  if (message.to_act !== null && message.thinking_for !== null && table) {
    turnKey = turnOf(table);
    turnStart = Date.now() - message.thinking_for * 1000;
  }
  decorate(table);
}

// Play again, for the Game over panel of a shared table (game.js puts it there as the panel's primary button): a
// new game of the same people and rules once everyone still at the table says yes. Null at a table of one person
// and for a spectator, who follows the table to the new game without being asked.
export function playAgainControls() {
  if (!people || people.you < 0) return null;
  const button = el("button", "button primary", "Play again");
  button.type = "button";
  button.id = "play-again";
  button.addEventListener("click", () => send({ type: "again" }));
  const note = el("p", "again-note");
  note.id = "again-note";
  note.setAttribute("role", "status");
  showAgain(button, note);
  return { button, note };
}

function showAgain(button, note) {
  if (!button || !people) return;
  const mine = people.seats[people.you];
  const wasDisabled = button.disabled;
  button.disabled = !people.over || !mine || Boolean(mine.gone) || mine.again || Boolean(people.moved_to);
  // the focus follows the play (game.js, followPlay): Play again, once it may be pressed, takes a resting focus
  const resting = [document.body, document.getElementById("main")].includes(document.activeElement);
  if (wasDisabled && !button.disabled && button.isConnected && resting) button.focus({ preventScroll: true });
  const yes = people.seats.filter((s) => s.again).map((s) => s.name);
  const waitingFor = people.seats.filter((s) => s.kind === "person" && !s.gone && !s.again).map((s) => s.name);
  note.textContent = people.moved_to
    ? "The new game has started."
    : yes.length
      ? `Play again: ${yes.join(", ")} said yes${waitingFor.length ? `; waiting for ${waitingFor.join(", ")}` : ""}.`
      : "";
}

function renderWaiting(message, host) {
  $("waiting-rules").textContent = message.rules;
  const list = $("waiting-seats");
  list.replaceChildren();
  for (const seat of message.seats) {
    const item = el("li", `waiting-seat ${seat.kind}`);
    item.dataset.seat = seat.seat;
    item.append(el("strong", "", seat.kind === "open" ? "Open seat: waiting for a friend" : seat.name));
    let what = "";
    if (seat.kind === "computer") what = `Computer player (${levelName(seat.level)})`;
    else if (seat.kind === "person") what = seat.connected ? "Here" : "Not connected";
    if (seat.seat === message.host && seat.kind === "person") what += " · host";
    if (seat.seat === message.you) what += " · you";
    if (what) item.append(el("span", "waiting-what", what));
    list.append(item);
  }
  $("host-tools").hidden = !host;
  $("invite-link").value = absolute(message.invite);
  const open = message.seats.filter((s) => s.kind === "open").length;
  $("start-game").disabled = open > 0;
  $("start-filled").hidden = open === 0;
  $("waiting-note").textContent = host
    ? open
      ? `${open} seat${open === 1 ? "" : "s"} still open.`
      : "Everyone is seated: start when you are ready."
    : "Waiting for the host to start the game.";
}

function levelName(level) {
  return { easy: "Easy", normal: "Normal", hard: "Hard" }[level] || level;
}

// After game.js draws the plates: who is a person, connected or not, a computer player playing for them.
export function decorate(state) {
  table = state;
  if (!people || !state) return;
  for (const plate of document.querySelectorAll(".plate[data-seat], #my-plate")) {
    const seat = Number(plate.dataset.seat);
    const info = people.seats[seat];
    plate.querySelector(".people-tag")?.remove();
    if (!info) continue;
    let text = "";
    let tone = "";
    if (info.kind === "person") {
      if (info.computer_playing) {
        text = `Computer playing for ${info.name}`;
        tone = "stand-in";
      } else {
        text = info.connected ? "Person · connected" : "Person · not connected";
        tone = info.connected ? "here" : "away";
      }
    } else if (info.kind === "computer") {
      text = "Computer player";
      tone = "computer";
    }
    if (!text) continue;
    const tag = el("p", `people-tag ${tone}`, text);
    plate.classList.toggle("away", info.kind === "person" && !info.connected && !info.computer_playing);
    plate.append(tag);
  }
  tick();
}

// A turn: the moment of the table and who is to act (the same seat may have two turns running: a trick's winner
// leads the next).
function turnOf(state) {
  return `${state.seq}:${state.deal.index}:${state.deal.to_act}`;
}

// A person's turn shows how long they have been thinking.
function tick() {
  if (!people || !table) return;
  const deal = table.deal;
  const live = !table.game.over && !table.game.waiting_for_next;
  const key = live ? turnOf(table) : null;
  if (key !== turnKey) {
    turnKey = key;
    turnStart = Date.now();
  }
  document.querySelectorAll(".thinking-clock").forEach((node) => node.remove());
  if (!live) return;
  const info = people.seats[deal.to_act];
  if (!info || info.kind !== "person" || info.computer_playing) return;
  const plate = document.querySelector(`.plate[data-seat="${deal.to_act}"], #my-plate[data-seat="${deal.to_act}"]`);
  if (!plate) return;
  const seconds = Math.max(0, Math.floor((Date.now() - turnStart) / 1000));
  const limit = people.settings.turn_seconds; // the turn timer, when the table has one
  // in the plate's turn chip ("Thinking… · 4 s", "Your turn · 4 s of 30"), not a line of the plate's own; on a phone
  // the chip puts the seconds on its second line (people.css)
  const chip = plate.querySelector(".turn-chip");
  const text = limit ? `${Math.min(seconds, limit)} s of ${limit}` : `${seconds} s`;
  const clock = chip ? el("span", "thinking-clock") : el("p", "thinking-clock", `Thinking ${text}`);
  if (chip) clock.append(el("span", "clock-dot", " · "), text);
  clock.setAttribute("aria-hidden", "true");
  (chip || plate).append(clock);
}
