// @ts-check
// The walks of Town of Stairs in words, for play without sight: each walk read as a path, card by
// card ("Red: from seaside 3; up right to b1 (P4, stairs); right to c1 (E2, Bakery), diary:
// Bakery; … Walk over: reached the lighthouse."), and one slot's card with the walkers that passed
// it. Pure apart from the catalog (tests/js/readout.test.mjs); the board binds R and S to them.
import { lang, N_, sentences, t } from "/static/js/kit/index.js";
import { cardWords, colourOf, eventName, words } from "./words.js";

const WORDS = {
  route: N_("{colour}: {steps}"),
  none: N_("{colour}: no walk yet."),
  start: N_("from seaside {n}"),
  upRight: N_("up right to {slot}"),
  upLeft: N_("up left to {slot}"),
  right: N_("right to {slot}"),
  left: N_("left to {slot}"),
  turned: N_("turns round, then {step}"),
  card: N_("{step} ({card})"),
  diary: N_("{step}, diary: {event}"),
  over: N_("Walk over: {end}."),
  slot: N_("{slot}: {card}."),
  empty: N_("{slot}: empty."),
  walkedBy: N_("Walked through by {names}."),
  nobody: N_("Nobody has walked through it."),
  routesKey: N_("R reads every walk as a path, card by card."),
  slotKey: N_("S reads the focused card and who walked through it."),
};

/** @typedef {{pos: string, col: number, row: number, dir?: string | null, diary?: string | null, action?: string | null}} Step */

/** The items joined as the page's language lists them. @param {string[]} items */
const joined = (items) => items.join(lang() === "ja" ? "、" : "; ");

/** The card in a slot, in words, or null for an empty slot.
 * @param {Record<string, any>} view @param {number} col @param {number} row */
function cardAt(view, col, row) {
  const id = row >= 1 ? view.grid?.[row - 1]?.[col] ?? null : null;
  return id ? cardWords(view, id) : null;
}

/** One step of a walk, from the step before it. @param {Record<string, any>} view @param {Step} from @param {Step} to */
export function stepWords(view, from, to) {
  const climbs = to.row > from.row;
  const key = climbs ? (to.dir === "left" ? "upLeft" : "upRight") : to.dir === "left" ? "left" : "right";
  let step = t(WORDS[key], { slot: to.pos });
  if (to.action === "rev") step = t(WORDS.turned, { step });
  const card = cardAt(view, to.col, to.row);
  if (card) step = t(WORDS.card, { step, card });
  if (to.diary) step = t(WORDS.diary, { step, event: eventName(view, to.diary) });
  return step;
}

/** A seat's walk as a path (pure but for the catalog).
 * @param {Record<string, any>} view  the Town view
 * @param {number} seat */
export function routeWords(view, seat) {
  const colour = words().colours[colourOf(view, seat)];
  /** @type {Step[]} */
  const steps = view.walks?.[seat] ?? [];
  if (steps.length === 0) return t(WORDS.none, { colour });
  const parts = [t(WORDS.start, { n: steps[0].col + 1 })];
  for (let i = 1; i < steps.length; i++) parts.push(stepWords(view, steps[i - 1], steps[i]));
  const path = t(WORDS.route, { colour, steps: joined(parts) });
  const end = view.walk_end?.[seat];
  return sentences([path + (lang() === "ja" ? "。" : "."), end ? t(WORDS.over, { end: words().ends[end] ?? end }) : ""].filter(Boolean));
}

/** Every seat's walk, one after the other (the R key). @param {Record<string, any>} view */
export function routesWords(view) {
  const seats = view.players ?? view.walks?.length ?? 0;
  return sentences(Array.from({ length: seats }, (_, seat) => routeWords(view, seat)));
}

/** A slot's card and the walkers that went through it (the S key).
 * @param {Record<string, any>} view @param {string} slot  e.g. "c2"
 * @param {(seat: number) => string} nameOf */
export function slotWords(view, slot, nameOf) {
  const col = slot.charCodeAt(0) - 97;
  const row = Number(slot.slice(1));
  const card = cardAt(view, col, row);
  const head = card ? t(WORDS.slot, { slot, card }) : t(WORDS.empty, { slot });
  const walkers = (view.walks ?? []).flatMap((/** @type {Step[]} */ steps, /** @type {number} */ seat) =>
    (steps.some((step) => step.col === col && step.row === row) ? [nameOf(seat)] : []));
  if (!card) return head;
  return sentences([head, walkers.length ? t(WORDS.walkedBy, { names: walkers.join(lang() === "ja" ? "、" : ", ") }) : t(WORDS.nobody)]);
}

/** The help sentences of the two keys. */
export const keyHelp = () => ({ routes: t(WORDS.routesKey), slot: t(WORDS.slotKey) });
