// The hand sorted for reading: by suit, the colours alternating, trump last; high cards first within a suit;
// Jesters first and Magicians at the very end (the strongest cards).

const RANKS = "23456789TJQKA";
const BLACK = new Set(["S", "C"]);

// The suits in the order they are shown: the others alternating in colour, then trump.
export function suitOrder(trump) {
  const others = ["S", "H", "C", "D"].filter((suit) => suit !== trump);
  // alternate colours: start with the colour there are more of, so that the last non-trump suit differs from trump
  const blacks = others.filter((suit) => BLACK.has(suit));
  const reds = others.filter((suit) => !BLACK.has(suit));
  const [first, second] = blacks.length >= reds.length ? [blacks, reds] : [reds, blacks];
  const order = [];
  while (first.length || second.length) {
    if (first.length) order.push(first.shift());
    if (second.length) order.push(second.shift());
  }
  return trump ? [...order, trump] : order;
}

export function sortHand(cards, trump) {
  const order = suitOrder(trump);
  const place = (card) => {
    if (card === "JE") return [-1, 0];
    if (card === "MG") return [order.length, 0];
    return [order.indexOf(card[1]), -RANKS.indexOf(card[0])];
  };
  return [...cards].sort((a, b) => {
    const [sa, ra] = place(a);
    const [sb, rb] = place(b);
    return sa - sb || ra - rb;
  });
}
