// The score keeper's page: lays out the sheet state the server sends and posts one entry at a time.
// Every rule is checked by the server (the same ScoreSheet as `ohhell keep`); a refusal comes back as a sentence,
// shown where the entry was made, and nothing already entered is lost.

const root = document.getElementById("keeper");
const sheetId = root.dataset.sheet;
const message = document.getElementById("message");
const byInput = document.getElementById("by");
const dialog = document.getElementById("fix-dialog");
const SUITS = [["S", "♠", "Spades"], ["H", "♥", "Hearts"], ["D", "♦", "Diamonds"], ["C", "♣", "Clubs"]];
const BY_KEY = "ohhell-keeper-by";

let state = JSON.parse(document.getElementById("state").textContent);
let chosenTricks = {};
let magicianTurned = false;
let busy = false;
let fixingDeal = null;

byInput.value = localStorage.getItem(BY_KEY) || "";
byInput.addEventListener("change", () => localStorage.setItem(BY_KEY, byInput.value.trim()));

function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else if (name === "className") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

function say(text, where = message) {
  where.textContent = text || "";
}

async function send(entry, where = message) {
  if (busy) return false;
  busy = true;
  root.classList.add("busy");
  try {
    const response = await fetch(`/api/keeper/sheets/${sheetId}/entries`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seen: state.seq, by: byInput.value.trim() || null, entry }),
    });
    const data = await response.json().catch(() => ({}));
    if (response.ok) {
      state = data;
      say("");
      say("", where);
      render();
      return true;
    }
    if (response.status === 409 && data.state) {
      state = data.state;
      render();
    }
    say(typeof data.detail === "string" ? data.detail : "That entry could not be read: check it and try again.", where);
    return false;
  } catch {
    say("The server could not be reached: nothing was entered. Try again.", where);
    return false;
  } finally {
    busy = false;
    root.classList.remove("busy");
  }
}

// ------------------------------------------------------------------ the question of the moment

function dealLine() {
  const now = state.now;
  const line = document.getElementById("deal-line");
  line.replaceChildren();
  if (!now) {
    line.append(h("strong", {}, "Game over. "), state.result);
    return;
  }
  const trump = now.trump
    ? h("span", { className: now.trump.red ? "red" : "" }, `${now.trump.symbol} ${now.trump.text}`)
    : "not entered yet";
  line.append(
    `Deal ${now.deal} of ${state.deal_count} · `,
    h("strong", {}, state.names[now.dealer]),
    " deals ",
    h("strong", { className: "cards" }, `${now.cards} card${now.cards === 1 ? "" : "s"}`),
    " · Trump: ",
    trump,
  );
}

function trumpStep() {
  const suitButtons = SUITS.map(([code, symbol, name]) =>
    h("button", {
      type: "button", className: `choice suit ${code === "H" || code === "D" ? "red" : ""}`,
      "data-trump": magicianTurned ? `MG ${code}` : code,
      onclick: () => send({ type: "trump", trump: magicianTurned ? `MG ${code}` : code }),
    }, h("span", { className: "symbol" }, symbol), name));
  const heading = magicianTurned ? "A Magician: which suit did the dealer name?" : "Which trump was turned up?";
  const special = state.special_cards && !magicianTurned
    ? [
      h("button", { type: "button", className: "choice", "data-trump": "JE",
        onclick: () => send({ type: "trump", trump: "JE" }) }, "Jester: no trump"),
      h("button", { type: "button", className: "choice", onclick: () => { magicianTurned = true; render(); } },
        "Magician: the dealer names trump"),
    ]
    : [];
  const back = magicianTurned
    ? h("button", { type: "button", className: "choice", onclick: () => { magicianTurned = false; render(); } },
      "Back: no Magician")
    : null;
  return [h("h1", {}, heading), h("div", { className: "choices" }, suitButtons, special, back)];
}

function bidStep() {
  const now = state.now;
  const seat = now.next_bidder;
  const isDealer = seat === now.dealer;
  const buttons = [];
  for (let n = 0; n <= now.cards; n++) {
    const allowed = now.allowed_bids.includes(n);
    buttons.push(h("button", {
      type: "button", className: `choice number${allowed ? "" : " forbidden"}`, "data-bid": n,
      disabled: !allowed, "aria-describedby": allowed ? null : "forbidden-reason",
      onclick: () => send({ type: "bid", bid: n, seat }),
    }, String(n), allowed ? null : h("small", {}, "Not allowed")));
  }
  const sofar = now.bid_order.filter((s) => now.bids[s] !== null)
    .map((s) => h("li", {}, `${state.names[s]} `, h("strong", {}, String(now.bids[s]))));
  return [
    h("h1", {}, `${state.names[seat]} bids`, isDealer ? h("span", { className: "muted" }, " (deals, bids last)") : null),
    h("p", { className: "bid-total" }, h("strong", {}, String(now.bid_total)), ` bid for ${now.cards} trick${now.cards === 1 ? "" : "s"}`),
    sofar.length ? h("ol", { className: "bids-so-far" }, sofar) : null,
    h("div", { className: "choices numbers" }, buttons),
    now.forbidden_reason ? h("p", { id: "forbidden-reason", className: "hook-note" }, now.forbidden_reason) : null,
  ];
}

function tricksStep() {
  const now = state.now;
  const rows = now.bid_order.map((seat) => {
    const chips = [];
    for (let n = 0; n <= now.cards; n++) {
      chips.push(h("button", {
        type: "button", className: "chip", "data-seat": seat, "data-tricks": n,
        "aria-pressed": chosenTricks[seat] === n ? "true" : "false",
        onclick: () => { chosenTricks[seat] = n; render(); },
      }, String(n)));
    }
    return h("div", { className: "tricks-row", role: "group", "aria-label": `Tricks won by ${state.names[seat]}` },
      h("span", { className: "who" }, state.names[seat], h("small", {}, ` bid ${now.bids[seat]}`)),
      h("span", { className: "chips" }, chips));
  });
  const chosen = now.bid_order.filter((s) => chosenTricks[s] !== undefined);
  const sum = chosen.reduce((total, s) => total + chosenTricks[s], 0);
  const complete = chosen.length === now.bid_order.length;
  const save = h("button", {
    type: "button", id: "save-tricks", className: "button primary big", disabled: !complete,
    onclick: async () => {
      const tricks = state.names.map((_, s) => chosenTricks[s]);
      if (await send({ type: "tricks", tricks })) chosenTricks = {};
    },
  }, "Save the tricks");
  return [
    h("h1", {}, "Tricks won"),
    rows,
    h("p", { className: sum === now.cards ? "tally ok" : "tally" }, `${sum} of ${now.cards} tricks given out`),
    save,
  ];
}

function step() {
  const box = document.getElementById("step");
  box.replaceChildren();
  if (state.phase === "trump") box.append(...trumpStep());
  else if (state.phase === "bids") box.append(...bidStep().filter(Boolean));
  else if (state.phase === "tricks") box.append(...tricksStep().flat());
  else box.append(h("h1", {}, state.result), h("p", {}, "Print it, or download it below."));
}

// ------------------------------------------------------------------ the sheet, the history, the players

function playerCell(row, seat) {
  const fixed = row.corrected.includes(`bid:${seat}`) || row.corrected.includes(`tricks:${seat}`);
  const classes = ["cell", seat === row.dealer ? "dealer" : "", row.made[seat] ? "made" : "", fixed ? "corrected" : ""];
  const bid = row.bids[seat];
  const won = row.tricks ? row.tricks[seat] : "?";
  return h("td", { className: classes.join(" ").trim(), title: fixed ? "Corrected: see the history" : null },
    bid === null ? "" : h("span", { className: "bw" }, `${bid}/${won}`),
    row.points ? h("span", { className: "pts" }, `${row.made[seat] ? "✓" : ""}${row.points[seat]}`) : null,
    row.totals ? h("span", { className: "tot" }, row.totals[seat]) : null);
}

function table() {
  const names = state.names;
  const head = h("thead", {}, h("tr", {}, h("th", {}, "Deal"),
    names.map((name) => h("th", { className: "player" }, name))));
  const body = h("tbody", {}, state.rows.map((row, index) => h("tr", { "data-deal": row.deal },
    h("td", { className: `deal${row.corrected.includes("trump") ? " corrected" : ""}` },
      h("button", {
        type: "button", className: "fix", "aria-label": `Correct deal ${row.deal}`, onclick: () => openFix(index),
      }, `${row.deal} ✎`),
      h("span", { className: "cards" }, `${row.cards} `,
        row.trump ? h("span", { className: row.trump.red ? "red" : "" }, row.trump.symbol) : null)),
    names.map((_, seat) => playerCell(row, seat)))));
  const winners = state.winners || [];
  const foot = h("tfoot", {}, h("tr", {}, h("td", {}, "Total"),
    names.map((_, seat) => h("td", { className: `total${winners.includes(seat) ? " winner" : ""}`, "data-seat": seat },
      `${winners.includes(seat) ? "★ " : ""}${state.totals[seat]}`))));
  document.getElementById("sheet").replaceChildren(head, body, foot);
  document.getElementById("rules-line").textContent = `${state.rules}. ${state.scoring} Shaded: the dealer.`;
  document.getElementById("result").textContent = state.result;
}

function history() {
  const list = document.getElementById("history");
  const items = state.history.slice().reverse().map((line) => {
    const at = new Date(line.at);
    const time = at.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
    return h("li", { className: line.correction ? "correction" : "" },
      h("time", { datetime: line.at }, time), " ", h("strong", {}, line.by), ": ",
      line.correction ? h("span", { className: "badge" }, "Correction") : null, " ", line.text);
  });
  list.replaceChildren(...(items.length ? items : [h("li", { className: "muted" }, "Nothing entered yet.")]));
}

function players() {
  const box = document.getElementById("players");
  const rows = state.names.map((name, seat) => {
    const input = h("input", { value: name, maxlength: 30, "aria-label": `Name of player ${seat + 1}` });
    return h("div", { className: "player-row" }, h("span", {}, `${seat + 1}.`), input,
      h("button", { type: "button", className: "button secondary", onclick: () => send({ type: "rename", seat, name: input.value }) }, "Rename"));
  });
  const select = h("select", { id: "first-dealer", "aria-label": "Who dealt first" },
    state.names.map((name, seat) => h("option", { value: seat, selected: seat === state.first_dealer }, name)));
  box.replaceChildren(...rows, h("div", { className: "player-row" }, h("label", { for: "first-dealer" }, "Dealt first:"), select,
    h("button", { type: "button", className: "button secondary",
      onclick: () => send({ type: "first-dealer", seat: Number(select.value) }) }, "Correct the first dealer")));
}

// ------------------------------------------------------------------ corrections

function trumpOptions(current) {
  const codes = SUITS.map(([code]) => code);
  if (state.special_cards) codes.push("JE", ...SUITS.map(([code]) => `MG ${code}`));
  const label = (code) => code === "JE" ? "Jester: no trump"
    : code.startsWith("MG") ? `Magician, ${SUITS.find(([c]) => c === code.slice(3))[2].toLowerCase()}`
    : SUITS.find(([c]) => c === code)[2];
  return codes.map((code) => h("option", { value: code, selected: code === current }, label(code)));
}

function openFix(index) {
  const row = state.rows[index];
  fixingDeal = index;
  document.getElementById("fix-title").textContent = `Correct deal ${row.deal} (${row.cards} cards)`;
  const fields = [];
  if (row.trump_entered && row.trump) {
    fields.push(h("label", { className: "fix-trump" }, "Trump ", h("select", { id: "fix-trump" }, trumpOptions(row.trump.code))));
  }
  const grid = state.names.map((name, seat) => h("div", { className: "fix-row" },
    h("span", { className: "who" }, name),
    row.bids[seat] === null ? h("span", { className: "muted" }, "no bid yet")
      : h("label", {}, "Bid ", h("input", { type: "number", min: 0, max: row.cards, value: row.bids[seat], "data-fix-bid": seat, inputmode: "numeric" })),
    row.tricks ? h("label", {}, "Won ", h("input", { type: "number", min: 0, max: row.cards, value: row.tricks[seat], "data-fix-tricks": seat, inputmode: "numeric" })) : null));
  document.getElementById("fix-fields").replaceChildren(...fields, ...grid);
  say("", document.getElementById("fix-message"));
  dialog.showModal();
}

document.getElementById("fix-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const bids = {};
  const tricks = {};
  for (const input of dialog.querySelectorAll("[data-fix-bid]")) bids[input.dataset.fixBid] = Number(input.value);
  for (const input of dialog.querySelectorAll("[data-fix-tricks]")) tricks[input.dataset.fixTricks] = Number(input.value);
  const trumpSelect = document.getElementById("fix-trump");
  const entry = { type: "correct", deal: fixingDeal, bids, tricks, trump: trumpSelect ? trumpSelect.value : null };
  if (await send(entry, document.getElementById("fix-message"))) dialog.close();
});
document.getElementById("fix-cancel").addEventListener("click", () => dialog.close());

function render() {
  if (state.phase !== "trump") magicianTurned = false;
  if (state.phase !== "tricks") chosenTricks = {};
  dealLine();
  step();
  table();
  history();
  players();
}

// ------------------------------------------------------------------ two phones, one sheet

const shareDialog = document.getElementById("share-dialog"); // only on the page of the browser that started it
const RETRY_MS = 3000;

function showShare(data) {
  const qr = document.getElementById("share-qr");
  qr.innerHTML = data.qr_svg; // an SVG the server drew from the link: no text from any user is in it
  const link = document.getElementById("share-link");
  link.href = data.path;
  link.textContent = data.url;
  const others = data.joined === 1 ? "1 other browser keeps" : `${data.joined} other browsers keep`;
  document.getElementById("share-joined").textContent = data.joined ? `${others} this sheet.` : "";
  document.getElementById("share-remove").checked = false;
  document.getElementById("share-remove-label").hidden = !data.joined;
  document.getElementById("share-copy").textContent = "Copy the link";
}

async function shareRequest(path, body) {
  const response = await fetch(`/api/keeper/sheets/${sheetId}/share${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Refusal(typeof data.detail === "string" ? data.detail : "That did not work: try again.");
  }
  return data;
}

class Refusal extends Error {} // the server's answer, with its sentence (any other error: it was not reached)

function removeJoined() {
  return { remove_joined: document.getElementById("share-remove").checked };
}

if (shareDialog) {
  const shareMessage = document.getElementById("share-message");
  const failed = (error) => error instanceof Refusal ? error.message
    : "The server could not be reached: nothing changed. Try again.";

  document.getElementById("share-button").addEventListener("click", async () => {
    try {
      showShare(await shareRequest("", {}));
      say("", shareMessage);
      shareDialog.showModal();
    } catch (error) {
      say(failed(error));
    }
  });

  document.getElementById("share-copy").addEventListener("click", async () => {
    const link = document.getElementById("share-link");
    try {
      await navigator.clipboard.writeText(link.textContent);
      document.getElementById("share-copy").textContent = "Copied";
    } catch {
      getSelection().selectAllChildren(link); // no clipboard (plain http): the link is selected to copy by hand
    }
  });

  document.getElementById("share-renew").addEventListener("click", async () => {
    try {
      const removing = removeJoined().remove_joined;
      showShare(await shareRequest("/renew", removeJoined()));
      say(`A new link: the old one no longer opens this sheet${removing ? ", and no other browser keeps it" : ""}.`,
        shareMessage);
    } catch (error) {
      say(failed(error), shareMessage);
    }
  });

  document.getElementById("share-withdraw").addEventListener("click", async () => {
    try {
      const removing = removeJoined().remove_joined;
      await shareRequest("/withdraw", removeJoined());
      shareDialog.close();
      say(`The share link was withdrawn: it no longer opens this sheet${
        removing ? ", and no other browser keeps it" : ""}. Share makes a new one.`);
    } catch (error) {
      say(failed(error), shareMessage);
    }
  });
}

// Another phone may enter something: the page keeps one request waiting at /next, which the server answers as
// soon as the sheet has other than the entries shown (or after a while, with nothing), and shows what came.
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function untilVisible() {
  if (document.visibilityState === "visible") return Promise.resolve();
  return new Promise((resolve) => {
    const seen = () => {
      if (document.visibilityState !== "visible") return;
      document.removeEventListener("visibilitychange", seen);
      resolve();
    };
    document.addEventListener("visibilitychange", seen);
  });
}

async function watch() {
  for (;;) {
    await untilVisible();
    try {
      const response = await fetch(`/api/keeper/sheets/${sheetId}/next?seen=${state.seq}`);
      if (response.status === 204) continue; // nothing new for a while: ask again
      if (response.status === 403 || response.status === 404) { // no longer kept here: say so, stop asking
        const data = await response.json().catch(() => ({}));
        say(typeof data.detail === "string" ? data.detail : "This score sheet is no longer kept in this browser.");
        return;
      }
      if (!response.ok) {
        await sleep(RETRY_MS);
        continue;
      }
      const fresh = await response.json();
      if (fresh.seq === state.seq) continue; // this phone's own entry, already shown
      while (busy || dialog.open) await sleep(250); // not in the middle of this phone's entry
      if (fresh.seq > state.seq) {
        state = fresh;
        render();
        say("Updated with an entry made on another phone.");
      }
    } catch {
      await sleep(RETRY_MS); // offline for a moment: try again shortly
    }
  }
}

render();
watch();
