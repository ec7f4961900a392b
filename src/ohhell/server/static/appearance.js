// How the table looks for whoever needs it, from the Table settings (settings.js): the four-colour pack (spades
// black, hearts red, diamonds blue, clubs green; cards.js draws it) and high contrast (the CSS of access.css).
// The system's wish for reduced motion needs nothing here: access.css stills every animation then.

export function applyAppearance(settings) {
  document.body.dataset.fourColour = String(Boolean(settings.fourColour));
  document.documentElement.classList.toggle("high-contrast", Boolean(settings.highContrast));
}
