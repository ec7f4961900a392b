// New game remembers the last choices in this browser (localStorage): the game, your name, the players and their
// levels, the Settings. Not the deal number: a new game deals new cards unless a number is typed again.

const KEY = "ohhell.new-game";
const NOT_KEPT = new Set(["number"]);

function fields(form) {
  return [...form.querySelectorAll("input[id], select[id]")].filter((field) => !NOT_KEPT.has(field.id));
}

export function rememberChoices(form) {
  const values = {};
  for (const field of fields(form)) values[field.id] = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch {
    // nothing is kept where the browser keeps nothing
  }
}

// Lay the remembered choices over the form: first the game and the number of players (which set the others),
// then everything else. `steps` are the form's own reactions: preset(), players().
export function recallChoices(form, steps) {
  let values = null;
  try {
    values = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    values = null;
  }
  if (!values || typeof values !== "object") return false;
  const set = (field) => {
    if (!Object.hasOwn(values, field.id)) return;
    const value = values[field.id];
    if (field.type === "checkbox" || field.type === "radio") field.checked = value === true;
    else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === value && !o.disabled)) field.value = String(value);
  };
  const preset = form.querySelector("#preset");
  set(preset);
  steps.preset();
  set(form.querySelector("#players"));
  steps.players();
  for (const field of fields(form)) if (field.id !== "preset" && field.id !== "players") set(field);
  steps.settings();
  return true;
}
