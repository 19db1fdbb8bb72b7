// @ts-check
// Sight's board geometry: 5×5 points, 84 units apart; seen from the second seat it is turned round.
import { squareGrid } from "/static/js/kit/index.js";

export const SIZE = 5;
export const GAP = 84; // distance between neighbouring points
export const MARGIN = 58;
export const WIDTH = GAP * (SIZE - 1) + MARGIN * 2;

/** Where each point is drawn for this viewer (kit grid: at(point) -> {x, y}). */
export function pointGrid(match) {
  return squareGrid({ files: SIZE, ranks: SIZE, pitch: GAP, margin: MARGIN, flipped: match.your_seat === 1 });
}
