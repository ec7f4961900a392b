// The club at the table: once a series is over, the XP it earned ("+120 XP · level 4") under the result.
// The game page tells of the end with an "ohhell:game-over" event (game.js); nothing else of it is touched.

let shown = false;

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
  if (shown) return;
  shown = true;
  showXp(event.detail.game);
});
