// @ts-check
// Whose turn it is, from a match payload (pure), and the players' names as pages show them.
import { N_, t } from "./i18n.js";

const BUILTIN_BOT = /^Bot (?:(\d+) )?\((easy|medium|hard)\)$/;
/** @type {Record<string, string>} */
const BOT_LEVELS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard") };

/** What these helpers read of a match payload (kit/boards.js BoardPayload, or a page's match).
 * @typedef {Pick<import("./boards.js").BoardPayload, "status" | "your_seat" | "to_move" | "seats">
 *   & {legal_moves?: string[]}} TurnPayload */

/** Whether the viewer may move now: the game is in play and the seat to move is theirs.
 * @template {TurnPayload} P
 * @param {P | null | undefined} match
 * @returns {match is P} */
export function isMyTurn(match) {
  return !!match && match.status === "active" && match.your_seat !== null
    && match.your_seat !== undefined && match.to_move === match.your_seat;
}

/**
 * The display name of a seat's player, or `fallback` for an open seat. Built-in bots ("Bot (easy)"
 * is stored) read in the page's language, and a player holding several seats is numbered:
 * "Bot 1 (easy)", "Bot 2 (easy)" ("Bot (easy) wins" did not say which).
 * @param {Pick<TurnPayload, "seats"> | null | undefined} match
 * @param {number | null} seat
 * @param {string} [fallback]
 * @returns {string}
 */
export function playerName(match, seat, fallback = "—") {
  const user = seat === null ? undefined : match?.seats?.[seat]?.user;
  if (!match || !user) return fallback;
  const sharing = user.id == null ? [] : match.seats.filter((s) => s.user && s.user.id === user.id);
  const found = user.kind === "bot" ? BUILTIN_BOT.exec(user.name ?? "") : null;
  const level = found?.[2];
  // a level's further bot ("Bot 2 (easy)") keeps its own number
  const number = found?.[1] ? Number(found[1])
    : sharing.length > 1 ? sharing.findIndex((s) => s.seat === seat) + 1 : null;
  if (level) {
    const values = { n: number, level: t(BOT_LEVELS[level]) };
    return number ? t("Bot {n} ({level})", values) : t("Bot ({level})", values);
  }
  return number ? `${user.name} ${number}` : user.name;
}

/** Whether a program holds the seat: Japanese drops the honorific after a bot's name.
 * @param {Pick<TurnPayload, "seats"> | null | undefined} match
 * @param {number | null} seat */
export function isBotSeat(match, seat) {
  return seat !== null && match?.seats?.[seat]?.user?.kind === "bot";
}

/** Legal moves the viewer may play now (none when it is not their turn or the board is read-only).
 * @param {TurnPayload | null | undefined} match
 * @param {boolean} [readOnly]
 * @returns {string[]} */
export function myMoves(match, readOnly = false) {
  return !readOnly && isMyTurn(match) ? match.legal_moves ?? [] : [];
}
