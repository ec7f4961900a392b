// Card text ("QH", "TS", "MG", "JE") to names, symbols and pictures.

export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_NAMES = {
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  T: "10", J: "jack", Q: "queen", K: "king", A: "ace",
};

export function cardName(text) {
  if (text === "MG") return "Magician";
  if (text === "JE") return "Jester";
  return `${RANK_NAMES[text[0]]} of ${SUIT_NAMES[text[1]]}`;
}

// The card back and faces chosen in the Collection, which every page puts on its body (base.html).
function chosen(name) {
  const value = document.body ? document.body.dataset[name] : "";
  return value && /^[a-z-]+$/.test(value) ? value : "classic";
}

// The faces a card is drawn with: those chosen in the Collection, but in four colours when the Table settings ask
// for the four-colour pack (body data-four-colour, set by /static/game/appearance.js) and they are two-coloured.
function faceStyle() {
  const faces = chosen("cardFaces");
  const fourColour = document.body && document.body.dataset.fourColour === "true";
  return fourColour && (faces === "classic" || faces === "plain") ? "four-colour" : faces;
}

export function cardPicture(text, alt = "") {
  const img = document.createElement("img");
  const faces = faceStyle();
  img.src = faces === "classic" ? `/static/cards/${text}.svg` : `/club/faces/${faces}/${text}.svg`;
  img.alt = alt;
  img.className = "card-face";
  img.draggable = false;
  return img;
}

export function cardBack(alt = "") {
  const img = document.createElement("img");
  const back = chosen("cardBack");
  img.src = back === "classic" ? "/static/cards/back.svg" : `/club/backs/${back}.svg`;
  img.alt = alt;
  img.className = "card-face";
  img.draggable = false;
  return img;
}

export function suitLabel(letter) {
  return letter ? `${SUIT_SYMBOLS[letter]} ${SUIT_NAMES[letter]}` : "no trump";
}

// Where seat `seat` sits around the table as `you` see it: you at the bottom, then clockwise
// (the player on your left is next), as fractions of the table's width and height.
export function seatPosition(seat, you, players) {
  const turn = (seat - you + players) % players;
  const angle = Math.PI / 2 + (turn * 2 * Math.PI) / players;
  return { x: 0.5 + 0.42 * Math.cos(angle), y: 0.5 + 0.4 * Math.sin(angle), turn };
}
