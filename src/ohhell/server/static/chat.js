// Table chat: lines of plain text (always put on the page with textContent, never as markup), quick phrases,
// and muting a person or spectator (kept in this browser only: muted lines are not shown here).

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const MUTED_KEY = "ohhell-muted";
let send = () => false;
let muted = new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));

export function initChat(options) {
  send = options.send;
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
  for (const button of document.querySelectorAll("[data-phrase]")) {
    button.addEventListener("click", () => send({ type: "chat", phrase: button.dataset.phrase }));
  }
}

function whoKey(line) {
  return line.watching ? `watching:${line.from}` : `seat:${line.seat}`;
}

export function onChat(message) {
  const list = $("chat-lines");
  for (const line of message.lines) {
    const key = whoKey(line);
    const item = el("li", `chat-line${line.watching ? " from-watcher" : ""}`);
    item.dataset.who = key;
    item.classList.toggle("muted", muted.has(key));
    const who = el("strong", "chat-from", line.watching ? `${line.from} (watching)` : line.from);
    const text = el("span", "chat-text", line.text); // textContent: markup in a message stays text
    const mute = el("button", "chat-mute", muted.has(key) ? "Unmute" : "Mute");
    mute.type = "button";
    mute.setAttribute("aria-label", `Mute ${line.from}`);
    mute.setAttribute("aria-pressed", String(muted.has(key))); // a toggle: a screen reader says whether it is on
    mute.addEventListener("click", () => toggleMute(key));
    item.append(who, document.createTextNode(": "), text, mute);
    list.append(item);
  }
  while (list.children.length > 100) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

function toggleMute(key) {
  if (muted.has(key)) muted.delete(key);
  else muted.add(key);
  localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
  for (const item of document.querySelectorAll(`#chat-lines [data-who="${CSS.escape(key)}"]`)) {
    item.classList.toggle("muted", muted.has(key));
    const button = item.querySelector(".chat-mute");
    button.textContent = muted.has(key) ? "Unmute" : "Mute";
    button.setAttribute("aria-pressed", String(muted.has(key)));
  }
  $("chat-note").textContent = muted.has(key) ? "Muted: their lines are hidden here." : "";
}

export function chatRefused(message) {
  if (message.code && message.code.startsWith("chat")) {
    $("chat-note").textContent = message.message;
    return true;
  }
  return false;
}
