// @ts-check
// Scalas' result in words for the end screen: squares topped, then the tie-break by
// towers at the greatest height still unequal. Facts from games/scalas/engine.py _score details.
import { t } from "/static/js/kit/index.js";

/** [{text, decided}] for the match page's #result-steps; empty unless the position decided. */
export function explainResult(match, nameOf) {
  const result = match.result;
  const details = result?.details;
  if (!details?.tops) return [];
  const [first] = details.tops;
  if (result.reason === "draw") {
    return [{ decided: true, text: t("Both top {count} squares, and the towers tie at every height.", { count: first }) }];
  }
  const winner = result.winners?.[0];
  if (winner === undefined) return [];
  const loser = 1 - winner;
  const names = { winner: nameOf(winner), loser: nameOf(loser) };
  if (result.reason === "most_tops") {
    return [{ decided: true, text: t("{winner} tops {more} squares, {loser} {fewer}.",
      { ...names, more: details.tops[winner], fewer: details.tops[loser] }) }];
  }
  if (result.reason === "tiebreak_towers" && details.tops_at_height) {
    return [
      { decided: false, text: t("1. Squares topped: {count} each — tied.", { count: first }) },
      { decided: true, text: t("2. Tallest towers: at height {height}, {winner} tops {more} and {loser} {fewer}.",
        { ...names, height: details.decided_at_height, more: details.tops_at_height[winner], fewer: details.tops_at_height[loser] }) },
    ];
  }
  return [];
}
