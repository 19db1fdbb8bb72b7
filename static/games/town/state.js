// @ts-check
// The Town board's state (one object `b` shared by its modules) and what it says about the match.
import { clickStep, isMyTurn, playerName as nameOf } from "/static/js/kit/index.js";

/** @import { Board, BoardContext, BoardPayload, GameView } from "/static/js/kit/boards.js" */

/**
 * The page structure build() makes: the banner, the scrolling SVG town and its layers, the panels.
 * @typedef {object} TownLayout
 * @property {HTMLElement} banner
 * @property {HTMLElement} scroller
 * @property {SVGSVGElement} canvas
 * @property {SVGDefsElement} defs
 * @property {SVGGElement} cardsLayer
 * @property {SVGGElement} trailsLayer
 * @property {SVGGElement} tokensLayer
 * @property {HTMLElement} offerPanel
 * @property {HTMLElement} playersPanel
 * @property {HTMLElement} scorePanel
 *
 * @typedef {object} TownState
 * @property {BoardContext} ctx the renderer context (kit/boards.js)
 * @property {HTMLElement} root
 * @property {?BoardPayload} match  the payload drawn (set by the first update, before any drawing)
 * @property {?string} selected the offer card picked (build phase)
 * @property {?number[]} shown  walk steps shown per seat (animation progress)
 * @property {?number} timer    the animation's next tick
 * @property {Map<number, SVGElement>} tokens  walkers' tokens by seat
 * @property {boolean} [reduceMotion]  the reader asked for less motion: walks jump
 * @property {?ReturnType<typeof import("/static/js/kit/index.js").focusGrid>} [keys]  the keyboard (none read-only)
 * @property {ReturnType<typeof import("/static/js/kit/index.js").moveAnnouncer>} [announcer]
 *
 * @typedef {TownLayout & TownState} TownBoard
 */

/** The view drawn (the board draws only once a payload came).
 * @param {TownBoard} b
 * @returns {GameView} */
export const view = (b) => /** @type {BoardPayload} */ (b.match).view;
/** @param {TownBoard} b */
export const myTurn = (b) => !b.ctx.readOnly && isMyTurn(b.match);
/** @param {TownBoard} b @param {number} seat */
export const playerName = (b, seat) => nameOf(b.match, seat);
/** The slots where offer card `card` may go (from the view's clicks).
 * @param {TownBoard} b @param {string} card */
export const slotsFor = (b, card) => Object.keys(clickStep(view(b).clicks, [card]).targets);
