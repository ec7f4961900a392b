// Make a transfer link here, or use one (or its code) to take the games of another device.

const $ = (id) => document.getElementById(id);

async function makeCode() {
  const response = await fetch("/api/transfer", { method: "POST" });
  const answer = await response.json();
  if (!response.ok) {
    $("made").hidden = false;
    $("made").textContent = answer.detail || "No link could be made.";
    return;
  }
  $("transfer-link").href = answer.url;
  $("transfer-link").textContent = answer.url;
  $("transfer-code").textContent = answer.code;
  $("transfer-qr").innerHTML = answer.qr_svg;
  $("made").hidden = false;
}

async function redeem(event) {
  event.preventDefault();
  const form = event.target;
  const code = form.dataset.code || $("code-input").value;
  $("redeem-error").textContent = "";
  const response = await fetch("/api/transfer/redeem", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) window.location.assign(answer.url || "/");
  else $("redeem-error").textContent = typeof answer.detail === "string" ? answer.detail : "Type the code of 16 letters and digits.";
}

$("make-code")?.addEventListener("click", makeCode);
$("copy-link")?.addEventListener("click", () => navigator.clipboard?.writeText($("transfer-link").href));
$("redeem-form")?.addEventListener("submit", redeem);
