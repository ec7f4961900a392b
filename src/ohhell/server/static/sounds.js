// Short sounds made here with WebAudio (no sound files): your turn, a trick taken, the end of a hand.
// Nothing plays before the person has touched the page (browsers refuse), nor when sounds are off.

let context = null;

function audio() {
  if (context === null) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

// One soft note: a sine with a quick rise and a gentle fall.
function note(ctx, frequency, start, length, volume = 0.12, type = "sine") {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  const t = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(t);
  oscillator.stop(t + length + 0.02);
}

const SOUNDS = {
  // two rising notes: it is your turn
  turn: (ctx) => {
    note(ctx, 660, 0, 0.16);
    note(ctx, 880, 0.11, 0.22);
  },
  // a short low knock: a trick is taken (higher when you took it)
  trick: (ctx, yours) => note(ctx, yours ? 520 : 330, 0, 0.12, 0.1, "triangle"),
  // three notes up: the hand is over
  hand: (ctx) => {
    note(ctx, 523, 0, 0.2);
    note(ctx, 659, 0.12, 0.2);
    note(ctx, 784, 0.24, 0.34);
  },
};

const played = []; // the sounds asked for, latest last

export function playSound(name, enabled, ...args) {
  if (!enabled) return;
  played.push(name);
  if (played.length > 20) played.shift();
  document.documentElement.dataset.sounds = played.join(" "); // for tests and tools: what would have been heard
  if (!navigator.userActivation?.hasBeenActive) return;
  const ctx = audio();
  if (ctx) SOUNDS[name](ctx, ...args);
}
