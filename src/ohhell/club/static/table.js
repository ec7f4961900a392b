// The club at the table, beside game.js (which it never reaches into): the Undo button (the club aid) and, once a
// series is over, the XP it earned ("+120 XP · level 4") under the result. game.js tells of every message with an
// "ohhell:message" event, of the end with "ohhell:game-over", and sends what an "ohhell:send" event holds.

let seq = null; // the actions the table has had: what an undo carries, like every move
let xpShown = false;

const undoButton = document.createElement("button");
undoButton.type = "button";
undoButton.id = "undo-button";
undoButton.className = "tool";
undoButton.textContent = "Undo";
undoButton.title = "Take back your last bid or card (and the computer players' moves after it)";
undoButton.hidden = true;
const hint = document.getElementById("hint-button");
if (hint) hint.before(undoButton);

undoButton.addEventListener("click", () => {
  if (seq === null) return;
  undoButton.disabled = true;
  document.dispatchEvent(new CustomEvent("ohhell:send", { detail: { type: "undo", seq } }));
});

document.addEventListener("ohhell:message", (event) => {
  const message = event.detail;
  if (message.type === "state" || message.type === "action") {
    seq = message.type === "state" ? message.seq : message.seq + 1;
    if ("undo" in message) {
      // a table that allows Undo says with every state and change whether you may take back your last move now
      undoButton.hidden = false;
      undoButton.disabled = !message.undo;
    }
  } else if (message.type === "error") undoButton.disabled = false;
});

async function showXp(gameId) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await fetch(`/api/club/series/${gameId}`, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const answer = await response.json();
      const line = document.getElementById("series-xp") || document.createElement("p");
      line.id = "series-xp";
      line.className = "series-end";
      line.textContent = answer.gave_up ? `Given up: no XP · level ${answer.level}` : answer.text;
      document.getElementById("result").after(line);
      return;
    }
    if (response.status !== 404) return;
    await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1))); // stored just after the last move
  }
}

document.addEventListener("ohhell:game-over", (event) => {
  undoButton.disabled = true;
  if (xpShown) return;
  xpShown = true;
  showXp(event.detail.game);
});
