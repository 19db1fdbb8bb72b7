// @ts-check
// Sight's result in one sentence for the end screen: whose turn found no legal move.
// The facts come from the engine's result details (games/sight/engine.py: loser, board_full).
import { t } from "/static/js/kit/index.js";

/** [{text, decided}] for the match page's #result-steps; empty unless the position decided. */
export function explainResult(match, nameOf) {
  const result = match.result;
  if (result?.reason !== "no_legal_move" || result.details?.loser === undefined) return [];
  const loser = nameOf(result.details.loser);
  return [{ decided: true, text: t("It was {loser}'s turn and {loser} had no legal move: a player who cannot move loses.", { loser }) }];
}
