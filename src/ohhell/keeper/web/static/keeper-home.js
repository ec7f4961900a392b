// The New score sheet form: players in seat order, who deals first, the preset and house rules.

const form = document.getElementById("new-sheet");
const list = document.getElementById("names");
const firstDealer = document.getElementById("first-dealer");
const error = document.getElementById("new-sheet-error");
const defaults = JSON.parse(document.getElementById("preset-defaults").textContent);
const SETTINGS = ["schedule", "scoring", "miss_penalty", "zero_bid_bonus_five", "hook", "trump", "special_cards"];
const KEEPER_KEY = "ohhell-keeper-by";

function inputs() {
  return [...list.querySelectorAll("input.player-name")];
}

function label(input, index) {
  return input.value.trim() || `Player ${index + 1}`;
}

function refreshDealers() {
  const chosen = firstDealer.value;
  firstDealer.replaceChildren(...inputs().map((input, index) => new Option(label(input, index), String(index))));
  if (chosen && Number(chosen) < inputs().length) firstDealer.value = chosen;
}

function addPlayer() {
  const count = inputs().length;
  if (count >= 7) return;
  const item = document.createElement("li");
  const input = document.createElement("input");
  input.className = "player-name";
  input.id = `name-${count + 1}`;
  input.maxLength = 30;
  input.placeholder = `Player ${count + 1}`;
  input.autocomplete = "off";
  input.setAttribute("aria-label", `Player ${count + 1}`);
  item.append(input);
  list.append(item);
  refreshDealers();
}

function removePlayer() {
  if (inputs().length > 3) list.lastElementChild.remove();
  refreshDealers();
}

function applyPreset() {
  const values = defaults[document.getElementById("preset").value];
  for (const name of SETTINGS) {
    const field = document.getElementById(name);
    if (field.type === "checkbox") field.checked = Boolean(values[name]);
    else field.value = values[name];
  }
}

function settings() {
  const preset = defaults[document.getElementById("preset").value];
  const out = {};
  for (const name of SETTINGS) {
    const field = document.getElementById(name);
    const value = field.type === "checkbox" ? field.checked : field.value;
    if (value !== preset[name]) out[name] = value;
  }
  return out;
}

document.getElementById("add-player").addEventListener("click", addPlayer);
document.getElementById("remove-player").addEventListener("click", removePlayer);
document.getElementById("preset").addEventListener("change", applyPreset);
list.addEventListener("input", refreshDealers);
const keeper = document.getElementById("keeper");
keeper.value = localStorage.getItem(KEEPER_KEY) || keeper.value;

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const names = inputs().map((input, index) => label(input, index));
  localStorage.setItem(KEEPER_KEY, keeper.value.trim());
  const body = {
    preset: document.getElementById("preset").value,
    names,
    first_dealer: Number(firstDealer.value || 0),
    keeper: keeper.value.trim() || "Scorekeeper",
    settings: settings(),
  };
  const response = await fetch("/api/keeper/sheets", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (response.ok) {
    window.location.href = data.url;
    return;
  }
  error.textContent = typeof data.detail === "string" ? data.detail
    : "Check the names: each player needs one, up to 30 letters.";
});

applyPreset();
refreshDealers();
