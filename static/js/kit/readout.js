// @ts-check
// Reading a board without seeing it, beyond each cell's name: a whole stack from the bottom up
// (the S key on a focused square), a list read as one sentence. Pure (tests/js/readout.test.mjs);
// focusgrid.js binds the keys, announce.js reads the text out.
import { lang, N_, t } from "./i18n.js";

const WORDS = {
  stack: N_("{square}: {n} high, from the bottom: {pieces}."),
  stackOne: N_("{square}: 1 high: {pieces}."),
  empty: N_("{square}: empty."),
  stackKey: N_("S reads the whole stack on the focused square, from the bottom to the top."),
};

/** Items joined as a list in the page's language ("a, b, c" / "a、b、c"). Pure.
 * @param {readonly string[]} items */
export function listed(items) {
  return items.join(lang() === "ja" ? "、" : ", ");
}

/** A stack read bottom to top (pure): "c3: 3 high, from the bottom: light, dark, light."
 * @param {string} square
 * @param {readonly string[]} pieces  each piece's word (its colour), bottom first */
export function stackReading(square, pieces) {
  if (pieces.length === 0) return t(WORDS.empty, { square });
  const key = pieces.length === 1 ? WORDS.stackOne : WORDS.stack;
  return t(key, { square, n: pieces.length, pieces: listed(pieces) });
}

/** The help sentence for the stack key (added to the board's key help). */
export function stackKeyHelp() {
  return t(WORDS.stackKey);
}
