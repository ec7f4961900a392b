// The New game form: a preset fills in the Settings; the form is sent as JSON to /api/games.

import { recallChoices, rememberChoices } from "./remember.js";

const form = document.getElementById("new-game");
const defaults = JSON.parse(document.getElementById("preset-defaults").textContent);
const setup = JSON.parse(document.getElementById("computer-setup").textContent);
const preset = document.getElementById("preset");
const players = document.getElementById("players");
const computers = document.getElementById("computers");
const errorBox = document.getElementById("form-error");

const SELECTS = ["schedule", "scoring", "trump"];
const CHECKS = ["miss_penalty", "zero_bid_bonus_five", "hook", "special_cards"];
const RADIOS = ["bid_changes", "first_lead"];

// Each menu shows a short name; the sentence under it says the whole of the choice.
function describeChoices() {
  for (const id of ["preset", ...SELECTS]) {
    const select = document.getElementById(id);
    const text = document.getElementById(`${id}-text`);
    const option = select.options[select.selectedIndex];
    if (text && option) text.textContent = option.dataset.text === option.text ? "" : option.dataset.text;
  }
}

function applyPreset() {
  const values = defaults[preset.value];
  for (const name of SELECTS) document.getElementById(name).value = values[name];
  for (const name of CHECKS) document.getElementById(name).checked = values[name];
  for (const name of RADIOS) {
    for (const radio of form.querySelectorAll(`input[name="${name}"]`)) radio.checked = radio.value === values[name];
  }
  limitPlayers();
  describeChoices();
  document.getElementById("howto-link").href = `/how-to-play/${preset.value}`;
}

// Only the player counts the rules allow are offered: Magicians and Jesters is for 3 to 6.
function limitPlayers() {
  const most = document.getElementById("special_cards").checked ? 6 : 7;
  for (const option of players.options) {
    const allowed = Number(option.value) <= most;
    option.disabled = !allowed;
    option.hidden = !allowed;
  }
  if (Number(players.value) > most) players.value = String(most);
  renderComputers();
}

function renderComputers() {
  const count = Number(players.value) - 1;
  const kept = [...computers.querySelectorAll("li")].map((li) => ({
    name: li.querySelector("input").value,
    level: li.querySelector("select").value,
  }));
  computers.replaceChildren();
  for (let i = 0; i < count; i++) {
    const previous = kept[i] || { name: setup.names[i], level: "normal" };
    const li = document.createElement("li");
    const nameId = `computer-name-${i}`;
    const levelId = `computer-level-${i}`;
    li.innerHTML = `
      <label class="sr-only" for="${nameId}">Name of computer player ${i + 1}</label>
      <input id="${nameId}" maxlength="24" required>
      <label class="sr-only" for="${levelId}">Level of computer player ${i + 1}</label>
      <select id="${levelId}">${Object.entries(setup.levels)
        .map(([value, title]) => `<option value="${value}">${title}</option>`)
        .join("")}<option value="friend">A friend</option></select>`;
    li.querySelector("input").value = previous.name;
    li.querySelector("select").value = previous.level;
    li.querySelector("select").addEventListener("change", describePlayers);
    computers.append(li);
  }
  describePlayers();
}

// The Players menu says who the others are, as the seats below are set: "4 (you + 3 computers)",
// "4 (you, 1 friend, 2 computers)".
function describePlayers() {
  const levels = [...computers.querySelectorAll("li select")].map((select) => select.value);
  for (const option of players.options) {
    const others = Number(option.value) - 1;
    const friends = levels.slice(0, others).filter((level) => level === "friend").length;
    const machines = others - friends;
    const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
    option.textContent = friends
      ? `${option.value} (you, ${plural(friends, "friend")}${machines ? `, ${plural(machines, "computer")}` : ""})`
      : `${option.value} (you + ${plural(machines, "computer")})`;
  }
}

function formData() {
  const settings = {};
  for (const name of SELECTS) settings[name] = document.getElementById(name).value;
  for (const name of CHECKS) settings[name] = document.getElementById(name).checked;
  for (const name of RADIOS) {
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    if (checked) settings[name] = checked.value;
  }
  const body = {
    preset: preset.value,
    name: document.getElementById("your-name").value.trim() || "You",
    computers: [...computers.querySelectorAll("li")].map((li) => {
      const level = li.querySelector("select").value;
      return { name: li.querySelector("input").value.trim() || "Friend", level: level === "friend" ? "normal" : level };
    }),
    settings,
  };
  // Seats set to "A friend" wait for someone with the invite link (a table of several people, see people.js).
  const friends = [...computers.querySelectorAll("li select")]
    .map((select, index) => (select.value === "friend" ? index + 1 : 0))
    .filter(Boolean);
  if (friends.length) {
    body.friends = friends;
    const turn = document.getElementById("turn_seconds").value;
    body.table = {
      grace_seconds: Number(document.getElementById("grace_seconds").value) || 30,
      turn_seconds: turn === "" ? null : Number(turn),
      spectator_chat: document.getElementById("spectator_chat").checked,
    };
  }
  const number = document.getElementById("number").value.trim();
  if (number !== "") body.number = number; // as text: a number of 19 digits is beyond JavaScript's exact integers
  return body;
}

function explain(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    const first = detail[0];
    const where = (first.loc || []).filter((part) => part !== "body").join(" ");
    if (where.startsWith("number")) return "The deal number is a whole number from 0 to 9223372036854775807.";
    if (where.startsWith("computers") || where.startsWith("name")) return "Every player needs a name (up to 24 characters).";
    return `${where}: ${first.msg}`;
  }
  return "The game could not be started.";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(formData()),
    });
    const answer = await response.json();
    if (!response.ok) {
      errorBox.textContent = explain(answer.detail);
      return;
    }
    rememberChoices(form);
    window.location.assign(answer.url);
  } catch {
    errorBox.textContent = "The server could not be reached. Is ohhell serve still running?";
  } finally {
    button.disabled = false;
  }
});

preset.addEventListener("change", applyPreset);
for (const id of SELECTS) document.getElementById(id).addEventListener("change", describeChoices);
players.addEventListener("change", renderComputers);
document.getElementById("special_cards").addEventListener("change", limitPlayers);
applyPreset();
recallChoices(form, {
  preset: applyPreset,
  players: renderComputers,
  settings: () => {
    limitPlayers();
    describeChoices();
  },
});
describePlayers(); // the seats recalled as they were last set

