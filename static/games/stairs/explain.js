// @ts-check
// Stairs' result, step by step: the winner rules look only at the tallest stacks —
// 1. highest piece: does only one side top a stack of the greatest height? 2. if both do, who
// tops more of them? 3. if still tied, whose last piece up there arrived first?
// The facts come from the engine's result details (games/stairs/engine.py score_now, explain.py):
// max_height, counts and top_squares per seat, arrival_plies when step 3 decided.
import { t } from "/static/js/kit/index.js";

const STEP_CODES = ["highest_piece", "most_at_top", "first_to_top"];

/**
 * The steps that decided `match.result`, in order: [{text, decided, marks: {win: [...], lose: [...]}}].
 * Empty when the result did not come from the position (resignation, time…).
 * @param {import("/static/js/kit/boards.js").BoardPayload} match  the match payload
 * @param {(seat: number) => string} nameOf  a seat's player name
 */
export function explainResult(match, nameOf) {
  const result = match.result;
  const details = result?.details;
  if (!result || !details?.counts || !details.max_height || !result.winners?.length) return [];
  if (!STEP_CODES.includes(result.reason ?? "") && result.reason !== "agreed_end") return [];
  const winner = result.winners[0];
  const loser = 1 - winner;
  const height = details.max_height;
  const counts = details.counts;
  const squares = details.top_squares ?? [[], []];
  const marks = { win: squares[winner], lose: squares[loser] };
  const name = (seat) => nameOf(seat);
  const steps = [];
  if (counts[loser] === 0) {
    steps.push({ decided: true, marks, text: t(
      "1. Highest piece: the tallest stacks are {height} high and only {winner} has pieces on top of them.",
      { height, winner: name(winner) }) });
    return steps;
  }
  steps.push({ decided: false, marks, text: t(
    "1. Highest piece: the tallest stacks are {height} high and both players have pieces on top of them — tied.",
    { height }) });
  if (counts[winner] !== counts[loser]) {
    steps.push({ decided: true, marks, text: t(
      "2. More pieces at that height: {winner} has {more}, {loser} has {fewer}.",
      { winner: name(winner), loser: name(loser), more: counts[winner], fewer: counts[loser] }) });
    return steps;
  }
  steps.push({ decided: false, marks, text: t(
    "2. More pieces at that height: {count} each — still tied.", { count: counts[winner] }) });
  const plies = details.arrival_plies ?? [];
  const text = plies[winner] === plies[loser] || plies[winner] === undefined
    ? t("3. Who reached it first: both were there from the start, and then light wins.")
    : t("3. Who reached it first: {winner} had {count} at height {height} by move {early}, {loser} only by move {late}.",
      { winner: name(winner), loser: name(loser), count: counts[winner], height, early: plies[winner], late: plies[loser] });
  steps.push({ decided: true, marks, text });
  return steps;
}
