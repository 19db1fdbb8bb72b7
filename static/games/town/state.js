// @ts-check
// The Town board's state (one object `b` shared by its modules) and what it says about the match.
import { clickStep, isMyTurn, playerName as nameOf } from "/static/js/kit/index.js";

/**
 * @typedef {object} TownBoard
 * @property {object} ctx       the renderer context (kit/boards.js)
 * @property {HTMLElement} root
 * @property {?object} match    the payload drawn
 * @property {?string} selected the offer card picked (build phase)
 * @property {?number[]} shown  walk steps shown per seat (animation progress)
 * @property {?number} timer    the animation's next tick
 * @property {Map<number, SVGElement>} tokens  walkers' tokens by seat
 */

export const view = (b) => b.match.view;
export const myTurn = (b) => !b.ctx.readOnly && isMyTurn(b.match);
export const playerName = (b, seat) => nameOf(b.match, seat);
/** The slots where offer card `card` may go (from the view's clicks). */
export const slotsFor = (b, card) => Object.keys(clickStep(view(b).clicks, [card]).targets);
