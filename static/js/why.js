// @ts-check
// "Why not here": when the player to move taps a square, point or slot the rules do not allow
// there, the page asks the server why (POST /api/v1/matches/{id}/why, side-effect free) and shows
// the reason, already in the page's language, near the board.
//
// Game-independent: it reads only the data-* attributes the game's renderer declares
// (`tapAttributes`, see static/js/kit/boards.js) and the view's `clicks` map (what a tap plays,
// static/js/kit/clicks.js), listening in the capture phase so it sees each tap before the board
// redraws. A tap the clicks map accepts (a legal move, a piece picked up, a card chosen) asks
// nothing; it only clears an earlier reason.
import { api } from "./api.js";
import { clickStep } from "./kit/clicks.js";
import { isMyTurn } from "./kit/turn.js";

/** @import { Clicks } from "./kit/clicks.js" */
/** @import { BoardPayload } from "./kit/boards.js" */

/** The CSS selector of elements that carry one of `attributes` (data-* names without "data-").
 * @param {readonly string[]} attributes */
export function tapSelector(attributes) {
  return attributes.map((name) => `[data-${name}]`).join(",");
}

/** The name a tapped element carries (its first of the board's `attributes`), or null.
 * @param {EventTarget | null} element  what was tapped (an Element, or anything else: no name)
 * @param {readonly string[]} attributes
 * @returns {string | null} */
export function tappedName(element, attributes) {
  const hit = attributes.length ? /** @type {Element | null} */ (element)?.closest?.(tapSelector(attributes)) : null;
  if (!hit) return null;
  for (const name of attributes) {
    const value = hit.getAttribute(`data-${name}`);
    if (value) return value;
  }
  return null;
}

/** How the server joins a two-tap move ("a1-b2", "P3@c2"): read from a move the map holds.
 * @param {Clicks | null | undefined} clicks
 * @param {string | null} first */
export function separator(clicks, first) {
  /** @type {[string, string | Clicks][]} */
  const maps = first && clicks?.[first] && typeof clicks[first] === "object"
    ? [[first, clicks[first]]] : Object.entries(clicks ?? {});
  for (const [a, inner] of maps) {
    if (!inner || typeof inner !== "object") continue;
    for (const [b, second] of Object.entries(inner)) {
      const move = /** @type {string} */ (second); // two taps make a move: the second level is moves
      if (move.startsWith(a) && move.endsWith(b)) return move.slice(a.length, move.length - b.length);
    }
  }
  return "-";
}

/**
 * What a tap on `name` means, after an accepted first tap `first` (or null): `{ask, first}`,
 * where `ask` is the move (or lone first part) to ask the server about, null when the tap is
 * legal, and `first` is the accepted first tap afterwards. Pure.
 * @param {Clicks | null | undefined} clicks
 * @param {string | null} first
 * @param {string} name
 * @returns {{ask: string | null, first: string | null}}
 */
export function classify(clicks, first, name) {
  const map = clicks ?? {};
  if (first !== null && clickStep(map, [first, name]).move) return { ask: null, first: null };
  if (Object.hasOwn(map, name)) {
    const opens = map[name] !== null && typeof map[name] === "object";
    return { ask: null, first: opens && name !== first ? name : null };
  }
  if (first !== null) return { ask: `${first}${separator(map, first)}${name}`, first: null };
  return { ask: name, first: null };
}

/**
 * Wire the reasons to a board. `attributes` are its renderer's `tapAttributes` (none: no
 * reasons); `getMatch()` returns the live match payload (null while a replay is shown);
 * `show(text)` writes the message near the board ("" clears it).
 * @param {object} wiring
 * @param {HTMLElement} wiring.board
 * @param {readonly string[]} [wiring.attributes]
 * @param {string | undefined} wiring.matchId
 * @param {() => BoardPayload | null} wiring.getMatch
 * @param {(text: string) => void} wiring.show
 */
export function wireWhy({ board, attributes = [], matchId, getMatch, show }) {
  /** @type {string | null} */
  let first = null;
  /** @type {number | null} */
  let ply = null;
  board.addEventListener("click", (event) => {
    const match = getMatch();
    if (!isMyTurn(match)) { first = null; return; }
    if (match.ply !== ply) { first = null; ply = match.ply; }
    const name = tappedName(event.target, attributes);
    if (name === null) return;
    const step = classify(match.view?.clicks, first, name);
    first = step.first;
    if (step.ask === null) { show(""); return; }
    const asked = match.ply;
    api("POST", `/api/v1/matches/${matchId}/why`, { move: step.ask })
      .then((answer) => {
        const now = getMatch();
        if (!answer.legal && now && now.ply === asked && isMyTurn(now)) show(answer.message);
      })
      .catch(() => {}); // a reason is a courtesy: a failed question shows nothing
  }, true);
}
