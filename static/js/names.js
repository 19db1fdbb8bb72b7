// Players' names as the pages show them (issue 18): the built-in bots in the reader's language
// ("Bot (easy)" is stored; 「ボット（やさしい）」 in Japanese), numbered when one bot holds several
// seats ("Bot 1 (easy)", "Bot 2 (easy)"), so "… wins" always says which.
import { N_, t } from "./kit/index.js";

const BUILTIN_BOT = /^Bot \((easy|medium|hard)\)$/;
const LEVELS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard") };

/** True when the seat is held by a program (built-in or a bot account). */
export function isBotSeat(match, seat) {
  return match?.seats?.[seat]?.user?.kind === "bot";
}

/** The seat's player name for display; `fallback` for an open seat. */
export function seatName(match, seat, fallback = "—") {
  const user = match?.seats?.[seat]?.user;
  if (!user) return fallback;
  const sharing = match.seats.filter((s) => s.user?.id === user.id);
  const number = sharing.length > 1 ? sharing.findIndex((s) => s.seat === seat) + 1 : null;
  const level = user.kind === "bot" ? BUILTIN_BOT.exec(user.name ?? "")?.[1] : undefined;
  if (level) {
    const values = { n: number, level: t(LEVELS[level]) };
    return number ? t("Bot {n} ({level})", values) : t("Bot ({level})", values);
  }
  return number ? `${user.name} ${number}` : user.name;
}

/**
 * A rating for display: the number, and while it is provisional (fewer than 10 rated games) a
 * small "provisional" pill that explains itself on hover or tap (issue 18: "(25?)" was cryptic).
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
