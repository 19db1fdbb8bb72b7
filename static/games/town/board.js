// @ts-check
// Town of Stairs (階段の街) board: the 7×4 town above the seaside row, the lighthouse row on top.
// Build phase: tap an offer card, then one of its highlighted slots (the view's `clicks` says which
// move that plays). Walk phase: the walker's token steps along view.walks[seat] card by card,
// leaving a trail; the pending choices (UR / UL / straight / rev) are buttons under the board.
// Modules: geometry.js, words.js, art.js (card faces), town.js (the town), walks.js (trails,
// tokens, animation), panels.js (offer, players, scores, banner, choices), state.js.
// Test hooks: [data-slot] (class "target" when playable, "last" for the last placement),
// [data-card], [data-seaside], [data-offer] (class "selected"), [data-move] choice buttons,
// [data-token-seat] / [data-trail-seat], [data-diary-seat] lists with [data-diary] items
// (class "interest"), #town-scores with [data-score-seat] rows, root data-phase / data-animating.
import { clearer, dragMoves, el, focusGrid, moveAnnouncer, svg } from "/static/js/kit/index.js";
import { COLS, HEIGHT, LEFT, PITCH_X, SEA, SEA_TOP, TOP, WIDTH } from "./geometry.js";
import { drawActions, drawBanner, drawFinal, drawOffer, drawPlayers } from "./panels.js";
import { keyHelp, routesWords, slotWords } from "./route.js";
import { playerName, slotsFor, view } from "./state.js";
import { drawTown } from "./town.js";
import { animate, drawTrails, lagging, placeTokens } from "./walks.js";
import { colourOf, eventName, moveWords, SEAT_COLOURS, words } from "./words.js";

/** @import { SeatInfo } from "/static/js/kit/boards.js" */
/** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked  this module is a renderer (kit/boards.js) */

/** What a tap chose, for "why not here" (static/js/why.js): the town's slots and the offer's cards. */
export const tapAttributes = ["slot", "offer"];

/** A move in words, for the move preview's title (kit/boards.js): "P3 to c2", "Up-right". */
export const describeMove = moveWords;

/** @type {SeatInfo} */
export function seatInfo(match, seat) {
  const v = match.view || {};
  const colour = colourOf(v, seat);
  const interests = v.characters?.[seat]?.interests ?? [];
  const label = [words().colours[colour], interests.map((e) => eventName(v, e)).join(" · ")]
    .filter(Boolean).join(" — ");
  return { label, colour: SEAT_COLOURS[colour] ?? "#999" };
}

/** The page structure: banner, the scrolling SVG town with its layers, and the side panels. */
function build(root, ctx) {
  const layout = el("div", { class: ctx.readOnly ? "town-layout town-read-only" : "town-layout" }, root);
  const banner = el("div", { class: "town-banner", "aria-live": "polite" }, layout);
  const scroller = el("div", { class: "town-scroll" }, layout);
  const canvas = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": words().board, class: "town-svg" }, scroller);
  const defs = svg("defs", {}, canvas);
  const clip = svg("clipPath", { id: "town-walk-clip" }, defs);
  svg("rect", { x: LEFT - 4, y: TOP, width: COLS * PITCH_X, height: SEA_TOP + SEA - TOP }, clip);
  return {
    banner, scroller, canvas, defs,
    cardsLayer: svg("g", { class: "town-cards" }, canvas),
    trailsLayer: svg("g", { class: "town-trails", "clip-path": "url(#town-walk-clip)" }, canvas),
    tokensLayer: svg("g", { class: "town-tokens" }, canvas),
    offerPanel: el("section", { class: "town-offer" }, layout),
    playersPanel: el("section", { class: "town-players" }, layout),
    scorePanel: el("section", { class: "town-final", hidden: true }, layout),
  };
}

function update(b, next) {
  const previous = b.match;
  if (!previous || next.ply !== previous.ply) b.selected = null;
  if (previous && previous.id !== next.id) b.shown = null;
  b.match = next;
  const v = view(b);
  b.root.dataset.phase = v.phase;
  // a previewed build draws the town after it; the chosen card stays chosen for when it ends
  if (b.selected && !next.preview && slotsFor(b, b.selected).length === 0) b.selected = null;
  const lengths = v.walks.map((steps) => steps.length);
  if (!b.shown || lengths.some((len, seat) => len < (b.shown[seat] ?? 0))) b.shown = lengths.slice();
  drawBanner(b);
  drawTown(b);
  drawOffer(b);
  drawActions(b);
  if (lagging(b) !== null) animate(b);
  else {
    drawTrails(b);
    placeTokens(b, false);
    drawPlayers(b);
  }
  if (!b.timer) b.root.dataset.animating = "no";
  drawFinal(b); // hidden while a walk is still being played out; the last tick shows it
  b.announcer.update(next);
}

/** Keyboard: Enter on a highlighted slot clicks it (places the chosen offer card); Escape drops the
 * choice and goes back to the offer card. */
function keyboard(b) {
  if (b.ctx.readOnly) return null;
  const help = keyHelp();
  return focusGrid(b.canvas, {
    label: words().board,
    readers: [
      { key: "r", help: help.routes, read: () => (b.match ? routesWords(view(b)) : null) },
      { key: "s", help: help.slot, read: (slot) => (b.match ? slotWords(view(b), slot, (seat) => playerName(b, seat)) : null) },
    ],
    cancel: () => {
      const card = b.selected;
      if (!card) return;
      b.selected = null;
      drawTown(b);
      drawOffer(b);
      b.offerPanel.querySelector(`[data-offer="${card}"]`)?.focus();
    },
  });
}

/** @type {import("/static/js/kit/boards.js").MountBoard} */
export function mountBoard(root, ctx) {
  root.classList.add("town-board");
  /** @type {import("./state.js").TownBoard} */
  const b = { root, ctx, ...build(root, ctx), match: null, selected: null, shown: null, timer: null,
    tokens: new Map(), reduceMotion: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches };
  b.keys = keyboard(b);
  // a mouse may drag an offer card onto one of its slots (kit/drag.js)
  if (!ctx.readOnly) {
    const named = (key) => b.root.querySelector(`[data-offer="${key}"], [data-slot="${key}"]`);
    dragMoves(root, {
      source: (node) => node.closest("button[data-offer].movable"),
      key: (node) => node.getAttribute("data-offer") ?? node.getAttribute("data-slot"),
      selected: (card) => b.selected === card,
      node: named,
      target: (node) => node.closest("[data-slot].target"),
    });
  }
  b.announcer = moveAnnouncer(ctx, { describe: moveWords, seatLabel: (payload, seat) => words().colours[colourOf(payload.view ?? {}, seat)] });
  return {
    update: (next) => update(b, next),
    destroy() { clearTimeout(b.timer ?? undefined); b.timer = null; clearer(root, ctx.actions)(); root.classList.remove("town-board"); },
  };
}
