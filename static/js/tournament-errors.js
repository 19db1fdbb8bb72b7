// @ts-check
// Tournament error codes in the page's language (the API's own message in English).
import { lang, N_, t } from "./kit/index.js";

/** @type {Record<string, string>} */
const WORDS = {
  accounts_only: N_("Sign up to create tournaments."),
  arena_needs_realtime: N_("An arena is played with a real-time clock."),
  invalid_rounds: N_("Give 1–30 rounds."),
  invalid_duration: N_("An arena lasts from 1 minute to 24 hours."),
  start_in_past: N_("The start time has passed."),
  duplicate_unrated: N_("Duplicate tournaments are not rated."),
  two_player_game_only: N_("Swiss and arena tournaments are for two-player games."),
  already_joined: N_("You are already in this tournament."),
  not_joined: N_("You are not in this tournament."),
  tournament_finished: N_("This tournament is over."),
  tournament_closed: N_("The last round is already paired."),
  rated_needs_account: N_("Rated tournaments are for accounts: sign up to join."),
  not_creator: N_("Only the tournament's creator may do that."),
  already_started: N_("This tournament has already started."),
  not_an_arena: N_("Only in an arena."),
  no_game_in_play: N_("You have no game in play in this arena."),
  cannot_berserk: N_("Berserk is for a real-time game, once, before your first move."),
};

/** The error's message for the page: translated when its code is a tournament's.
 * @param {unknown} error  what the call threw: an ApiError (api.js), or any Error
 * @returns {string} */
export function tournamentError(error) {
  const { code, message } = /** @type {{code?: string, message: string}} */ (error);
  if (lang() === "en" && message) return message;
  const msgid = code ? WORDS[code] : undefined;
  return msgid ? t(msgid) : message;
}
