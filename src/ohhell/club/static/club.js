// The club page: open a club table (a table of several people whose seats are all for the club's members).

const form = document.getElementById("club-table-form");

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = Number(form.querySelector("#club-players").value);
  const seats = Array.from({ length: players - 1 }, (_, i) => i + 1);
  const body = {
    preset: form.querySelector("#club-preset").value,
    name: form.dataset.name,
    computers: seats.map((seat) => ({ name: `Seat ${seat + 1}`, level: "normal" })),
    friends: seats,
    club: Number(form.dataset.club),
  };
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    const detail = answer.detail;
    form.querySelector("#club-table-error").textContent = Array.isArray(detail) ? detail.map((d) => d.msg).join(" ") : detail;
    return;
  }
  window.location.href = answer.url;
});

// Copy an invite link (the buttons beside each one); the button says it was copied.
for (const button of document.querySelectorAll(".copy-invite")) {
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select the link to copy it";
    }
  });
}
