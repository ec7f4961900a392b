// The invite link's join page: your name and a free seat, sent as JSON; then on to the table's waiting room.

const form = document.getElementById("join-form");
if (form) {
  const name = document.getElementById("join-name");
  name.value = localStorage.getItem("ohhell-name") || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("join-error");
    error.textContent = "";
    const seat = form.querySelector('input[name="seat"]:checked');
    if (!name.value.trim()) {
      error.textContent = "Give your name (up to 24 characters).";
      return;
    }
    if (!seat) {
      error.textContent = "Choose a seat.";
      return;
    }
    const response = await fetch(`/api/join/${form.dataset.code}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: name.value.trim(), seat: Number(seat.value) }),
    });
    const answer = await response.json();
    if (!response.ok) {
      error.textContent = typeof answer.detail === "string" ? answer.detail : "The seat could not be taken.";
      return;
    }
    localStorage.setItem("ohhell-name", name.value.trim());
    window.location.assign(answer.url);
  });
}
