// The printable sheet's Print button (a file of its own: the pages' Content-Security-Policy runs no inline script).
document.getElementById("print-button")?.addEventListener("click", () => window.print());
