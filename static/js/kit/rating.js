// @ts-check
// A player's rating as the pages show it: "1512", or "1500?" while provisional; the BOT mark.
import { t } from "./i18n.js";

/** A player's rating as the API gives it.
 * @typedef {{display: number | string, provisional?: boolean}} Rating */

/** The text of a rating badge ("" without a rating). Pure.
 * @param {Rating | null | undefined} rating */
export function ratingText(rating) {
  if (!rating) return "";
  return `${rating.display}${rating.provisional ? "?" : ""}`;
}

/** A muted badge element for `rating`, or null.
 * @param {Rating | null | undefined} rating
 * @param {string} [className] */
export function ratingBadge(rating, className = "rating muted") {
  const text = ratingText(rating);
  if (!text) return null;
  const badge = document.createElement("span");
  badge.className = className;
  badge.textContent = text;
  return badge;
}

/** The BOT mark beside a program's name (`user.kind === "bot"`), or null for a person. */
/** @param {{kind?: string} | null | undefined} user */
export function botBadge(user) {
  if (user?.kind !== "bot") return null;
  const badge = document.createElement("span");
  badge.className = "badge bot-badge";
  badge.title = t("A program, not a person");
  badge.textContent = "BOT";
  return badge;
}
