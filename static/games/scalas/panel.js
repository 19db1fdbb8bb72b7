// @ts-check
// Around the Scalas board: each side's colour, tops and cubes in hand, the view buttons and the
// hint line, in the page's language.
import { buttonMoves, el, hintLine, N_, sentences, t } from "/static/js/kit/index.js";
import { cubeIcon } from "./cubes.js";

export const WORDS = {
  red: N_("Red"), blue: N_("Blue"), you: N_("you"), tops: N_("tops"), hand: N_("in hand"), board: N_("Scalas board"),
  flat: N_("Flat view"), iso: N_("3D view"), rotate: N_("Rotate"), bottom: N_("Bottom level {n}"),
  place: N_("Place a cube on a square outlined in green."),
  forced: N_("Forced placement: fill the glowing squares — {n} cube(s) to go, in any order."),
  forced_other: N_("{colour} is making forced placements ({n} to go)."),
  closed: N_("{colour} has no cubes left: new cubes go only on occupied squares."),
  pass: N_("You have no legal placement: pass."),
  final: N_("Final tops — red {r}, blue {b}."),
  tiebreak: N_("Tied on tops; decided by the towers of height {h} ({r}–{b})."),
};

export const say = (key, values = {}) => t(WORDS[key], values);

function side(bar, seat) {
  const box = el("div", { class: "scalas-side", "data-seat": seat }, bar);
  const head = el("div", { class: "scalas-side-head" }, box);
  return {
    side: box, icon: el("span", { class: "scalas-icon-box" }, head), name: el("span", { class: "scalas-side-name" }, head),
    tops: el("span", { class: "scalas-tops", "data-tops": seat }, box), topsWord: el("span", { class: "scalas-tops-word" }, box),
    hand: el("span", { class: "scalas-hand", "data-hand": seat }, box), colour: null,
  };
}

/** The bar above the board (one side per seat) and the foot under it (bottom level, buttons). */
export function buildBar(frame) {
  const bar = el("div", { class: "scalas-bar" }, frame);
  return { sides: [side(bar, 0), side(bar, 1)] };
}

export function buildFoot(frame, readOnly) {
  const hint = hintLine(frame, "scalas-hint");
  hint.node.hidden = readOnly;
  const foot = el("div", { class: "scalas-foot", hidden: readOnly }, frame);
  return {
    hint, bottomInfo: el("span", { class: "scalas-bottom" }, foot),
    toggle: el("button", { type: "button", class: "scalas-toggle", "data-view-toggle": true }, foot),
    rotate: el("button", { type: "button", class: "scalas-toggle", "data-rotate": true }, foot),
  };
}

export function drawBar(parts, match, mode) {
  const view = match.view;
  for (const [seat, part] of parts.sides.entries()) {
    const colour = view.colours[seat];
    if (part.colour !== colour) { part.icon.replaceChildren(); cubeIcon(colour, part.icon); part.colour = colour; }
    part.side.className = `scalas-side ${colour}` + (match.status === "active" && match.to_move === seat ? " to-move" : "");
    part.name.textContent = say(colour) + (match.your_seat === seat ? ` (${say("you")})` : "");
    part.tops.textContent = String(view.score[seat]);
    part.topsWord.textContent = say("tops");
    part.hand.textContent = `${say("hand")} ${view.hands[seat]}`;
  }
  parts.toggle.textContent = mode === "iso" ? `▦ ${say("flat")}` : `⬢ ${say("iso")}`;
  parts.rotate.textContent = `⟳ ${say("rotate")}`;
  parts.rotate.hidden = mode !== "iso";
  parts.bottomInfo.textContent = say("bottom", { n: view.bottom_level });
}

function finalText(match) {
  const view = match.view;
  const details = match.result?.details ?? view.result?.details;
  const text = say("final", { r: view.score[0], b: view.score[1] });
  if (!details?.decided_at_height) return text;
  const [r, b] = details.tops_at_height;
  return sentences([text, say("tiebreak", { h: details.decided_at_height, r, b })]);
}

/** The hint under the board: the final score, whose forced placements, what to do now. */
export function hintText(match, { mine }) {
  const view = match.view;
  if (match.status === "finished") return finalText(match);
  if (match.status !== "active" || match.to_move === null) return "";
  if (view.phase === "forced") {
    return mine ? say("forced", { n: view.to_place }) : say("forced_other", { colour: say(view.colours[match.to_move]), n: view.to_place });
  }
  const closed = view.empty_squares_closed ? say("closed", { colour: say(view.colours[1 - match.to_move]) }) : "";
  if (mine && buttonMoves(match.legal_moves, view.clicks).length) return say("pass");
  if (mine) return sentences([say("place"), closed]);
  return closed;
}
