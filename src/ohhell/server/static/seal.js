// The sealed deal (docs/deal-numbers.md): from the start every seat and spectator sees the commitment, SHA-256 of
// "ohhell-commit/1:<number>:<salt>"; once the series is over the number and salt come too, and this page hashes
// them again (crypto.subtle) to show that they match. The shell command beside it does the same by hand.

const checked = new Map(); // "sha256 salt number" -> true/false, so each render does not hash again

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Whether the revealed number and salt hash to the commitment (null: nothing to check, or no crypto.subtle here).
export async function sealMatches(seal) {
  if (!seal || seal.salt === null || seal.number === null) return null;
  const key = `${seal.sha256} ${seal.salt} ${seal.number}`;
  if (!checked.has(key)) {
    if (!(globalThis.crypto && crypto.subtle)) return null;
    checked.set(key, (await sha256Hex(`${seal.scheme}:${seal.number}:${seal.salt}`)) === seal.sha256);
  }
  return checked.get(key);
}

function line(text, className = "") {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.textContent = text;
  return p;
}

function code(text) {
  const c = document.createElement("code");
  c.textContent = text;
  return c;
}

// Fill `box` (the page's #seal) and the header's number (#deal-number) from the state's `commitment`.
export async function showSeal(seal, box, numberNode, chooser = "you", over = false) {
  if (!seal || !box) return;
  if (numberNode) {
    numberNode.textContent = seal.number !== null ? seal.number : "sealed";
    numberNode.title = `SHA-256 seal ${seal.sha256}`;
  }
  const badge = document.getElementById("practice-badge");
  if (badge) badge.hidden = !seal.practice;
  const parts = [];
  if (seal.practice) {
    parts.push(
      line(
        `Practice: the deal number was chosen${chooser ? ` by ${chooser}` : ""}, so this series earns no XP,` +
          " statistics, rating or club win.",
        "seal-practice",
      ),
    );
  }
  const sealLine = line("Seal of the cards (SHA-256): ");
  sealLine.append(code(seal.sha256));
  parts.push(sealLine);
  if (seal.salt === null) {
    parts.push(
      line(
        over && seal.number === null
          ? "This table is a duplicate event's entry: its number and salt are shown when the event closes."
          : seal.number === null
            ? "A secret number fixed every hand before the first deal. It and its salt are shown here when the" +
                " series is over, so that everyone can check the cards were never changed."
            : `You chose the deal number ${seal.number}; the others see it when the series is over.`,
      ),
    );
  } else {
    const told = line(`Deal number ${seal.number}, salt `);
    told.append(code(seal.salt));
    parts.push(told);
    const verdict = line("Checking…", "seal-check");
    verdict.id = "seal-check";
    parts.push(verdict);
    const yourself = line("Check it yourself: ");
    yourself.append(code(seal.check));
    parts.push(yourself);
    parts.push(line("ohhell check on the downloaded record checks the number, the salt and every card dealt."));
    sealMatches(seal).then((match) => {
      verdict.dataset.match = String(match);
      verdict.textContent =
        match === null
          ? "This browser cannot hash here: use the command below."
          : match
            ? "✓ They match the seal shown from the start: the cards were fixed before the first deal."
            : "✗ They do not match the seal shown from the start.";
      verdict.classList.toggle("seal-bad", match === false);
    });
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}
