// The table's settings, kept per browser (localStorage): the pace, the forced card, the next hand by itself,
// sounds, how the hand is sorted, and how the cards are seen (appearance.js). Anything unreadable falls back to
// the defaults.

const KEY = "ohhell.table";

export const SPEEDS = {
  slow: { label: "Slow", factor: 1.8 },
  normal: { label: "Normal", factor: 1 },
  fast: { label: "Fast", factor: 0.4 },
  instant: { label: "Instant", factor: 0 },
};

export const DEFAULTS = Object.freeze({
  speed: "normal", // how long each pause lasts: a computer player's card and bid, a finished trick
  forcedCard: true, // a card that is the only one you may play is played for you
  autoNext: false, // the next hand starts by itself a few seconds after a hand is over
  sounds: true, // short sounds: your turn, a trick taken, the end of a hand
  sortBySuit: true, // the hand by suit, colours alternating, trump last
  fourColour: false, // the four-colour pack: every suit a colour of its own
  highContrast: false, // black and white, strong outlines, bold text
});

function valid(name, value) {
  if (name === "speed") return Object.hasOwn(SPEEDS, value);
  return typeof value === "boolean";
}

export function loadSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS)) if (valid(name, stored[name])) settings[name] = stored[name];
  return settings;
}

export function saveSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // a browser that keeps nothing (private mode with storage off) plays with the settings of this visit
  }
}

// The settings dialog: one control per setting, each change kept at once and handed to `changed`.
export function bindSettingsDialog(dialog, settings, changed) {
  for (const input of dialog.querySelectorAll("[data-setting]")) {
    const name = input.dataset.setting;
    if (input.type === "checkbox") input.checked = settings[name];
    else if (input.type === "radio") input.checked = input.value === settings[name];
    input.addEventListener("change", () => {
      if (input.type === "radio" && !input.checked) return;
      settings[name] = input.type === "checkbox" ? input.checked : input.value;
      saveSettings(settings);
      changed(name);
    });
  }
}
