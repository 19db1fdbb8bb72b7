// @ts-check
// Players' names and ratings as the site's pages show them. Names come from the kit
// (kit/turn.js playerName: built-in bots translated and numbered), ratings with a clear
// "provisional" mark.
import { isBotSeat, playerName, t } from "./kit/index.js";

export { isBotSeat, playerName as seatName };

/**
 * A rating for display: the number, and while it is provisional (fewer than 10 rated games) a
 * small "provisional" pill that explains itself on hover or tap ("(25?)" was cryptic).
 * Returns null without a rating.
 */
export function ratingMark(rating, className = "rating muted") {
  if (!rating) return null;
  const mark = document.createElement("span");
  mark.className = className;
  mark.textContent = String(rating.display);
  if (rating.provisional) {
    const pill = document.createElement("span");
    pill.className = "provisional-mark";
    pill.textContent = t("provisional");
    pill.title = t("Provisional rating: fewer than 10 rated games, so it can still change a lot");
    mark.append(" ", pill);
  }
  return mark;
}
