// A person's page of a closed duplicate event: "Play these cards again" starts a practice game with the same deal.
"use strict";
(() => {
  const button = document.getElementById("practice-replay");
  if (!button) return;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const response = await fetch(`/api/games/${button.dataset.game}/replay-deal`, { method: "POST" });
    if (response.ok) {
      window.location.href = (await response.json()).url;
      return;
    }
    const problem = await response.json().catch(() => ({}));
    document.getElementById("practice-error").textContent = problem.detail || "The practice game could not start.";
    button.disabled = false;
  });
})();
