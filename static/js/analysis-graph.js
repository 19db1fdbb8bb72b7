// @ts-check
// The value graph of a computer analysis: one line per seat (its value, 0–1, after
// every ply) in the seat's game colour (CSS --seat-N, set by analysis-replay.js), dots on marked moves, a cursor on the shown ply; a click asks for that ply.
// Pure DOM, no fetching: analysis-replay.js gives it the analysis result.
import { svg, N_, nt, t } from "./kit/index.js";

/**
 * One analysed move: the mark a mistake earned, the move the computer preferred and the view
 * after it.
 * @typedef {{ply: number, seat: number, move: string, mark?: string | null, best?: string | null,
 *   best_view?: object | null}} AnalysedMove
 * @typedef {{positions: {values: number[]}[], moves: AnalysedMove[], counts: Record<string, number>[]}} AnalysisResult
 */

/** @type {Record<string, string>} */
export const MARK_WORDS = { inaccuracy: N_("Inaccuracy"), mistake: N_("Mistake"), blunder: N_("Blunder") };
/** "1 blunder", "5 blunders": how many moves of a seat earned a mark.
 * @type {Record<string, (n: number) => string>} */
export const MARK_COUNTS = {
  inaccuracy: (n) => nt("{n} inaccuracy", "{n} inaccuracies", n),
  mistake: (n) => nt("{n} mistake", "{n} mistakes", n),
  blunder: (n) => nt("{n} blunder", "{n} blunders", n),
};
/** @type {Record<string, string>} */
export const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const HEIGHT = 100;
const STEP = 10;

/** Values per seat for every position (the seat to move's search value, seen by every seat). */
/** @param {Pick<AnalysisResult, "positions">} result @returns {number[][]} */
export function seatSeries(result) {
  const seats = result.positions[0]?.values.length ?? 0;
  return Array.from({ length: seats }, (_, seat) => result.positions.map((p) => p.values[seat]));
}

/** The ply a click at `fraction` (0–1 across the graph) points at. Pure. */
/** @param {number} fraction @param {number} positions */
export function plyAt(fraction, positions) {
  const last = Math.max(0, positions - 1);
  return Math.max(0, Math.min(last, Math.round(fraction * last)));
}

/** Draw the graph into `root`; returns {select(ply)} to move the cursor.
 * @param {HTMLElement} root
 * @param {AnalysisResult} result
 * @param {{onPly: (ply: number) => void, seatLabel: (seat: number) => string}} handlers */
export function drawGraph(root, result, { onPly, seatLabel }) {
  root.replaceChildren();
  const count = result.positions.length;
  const width = Math.max(1, count - 1) * STEP;
  const canvas = svg("svg", { viewBox: `0 0 ${width} ${HEIGHT}`, preserveAspectRatio: "none",
    class: "value-graph", role: "img", "aria-label": t("Value graph: each player's chances after every move") }, root);
  svg("line", { x1: 0, x2: width, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "graph-middle" }, canvas);
  seatSeries(result).forEach((values, seat) => {
    const points = values.map((v, ply) => `${ply * STEP},${(1 - v) * HEIGHT}`).join(" ");
    svg("polyline", { points, class: "graph-casing" }, canvas); // a pale seat colour stays visible
    const line = svg("polyline", { points, class: `graph-line seat-${seat}` }, canvas);
    svg("title", {}, line).textContent = seatLabel(seat);
  });
  for (const move of result.moves) {
    if (!move.mark) continue;
    const value = result.positions[move.ply].values[move.seat];
    const dot = svg("circle", { cx: move.ply * STEP, cy: (1 - value) * HEIGHT, r: 4,
      class: `graph-mark mark-${move.mark}`, "data-ply": move.ply }, canvas);
    svg("title", {}, dot).textContent = `${move.ply}. ${move.move} ${MARK_SIGNS[move.mark]} ${t(MARK_WORDS[move.mark])}`;
  }
  const cursor = svg("line", { x1: 0, x2: 0, y1: 0, y2: HEIGHT, class: "graph-cursor" }, canvas);
  canvas.addEventListener("click", (event) => {
    const box = canvas.getBoundingClientRect();
    onPly(plyAt((event.clientX - box.left) / Math.max(1, box.width), count));
  });
  return {
    /** @param {number} ply */
    select(ply) {
      cursor.setAttribute("x1", String(ply * STEP));
      cursor.setAttribute("x2", String(ply * STEP));
    },
  };
}
