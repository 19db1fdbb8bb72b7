// @ts-check
// The page's words: `t("English text", {name: …})` looks the English msgid up in the catalog the
// server embedded for this page (<script id="messages">: msgid -> translation for the page's
// language, from app/translations/*.po; English needs none). Every t("…") and N_("…") literal in
// static/**.js is extracted by `make translations` and checked by tests/web/test_translations.py,
// so a string is translated in exactly one place. Pure apart from reading that one element.

/** @type {Record<string, string> | null} */
let catalog = null;

/** @returns {Record<string, string>} */
function messages() {
  if (catalog === null) {
    const node = globalThis.document?.getElementById("messages");
    /** @type {Record<string, string>} */
    const entries = node ? JSON.parse(node.textContent || "{}") : {};
    catalog = entries;
  }
  return catalog;
}

/** @type {string | null} */
let language = null;

/** For tests and embeds: use this catalog (and language) instead of the page's.
 * @param {Record<string, string>} entries
 * @param {string | null} [lang] */
export function useCatalog(entries, lang = null) {
  catalog = { ...entries };
  language = lang;
}

/** Replace `{name}` placeholders with values.
 * @param {string} text
 * @param {Record<string, unknown>} [values]
 * @returns {string} */
export function format(text, values = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The translation of an English msgid, placeholders filled.
 * @param {string} msgid
 * @param {Record<string, unknown>} [values]
 * @returns {string} */
export function t(msgid, values = {}) {
  return format(messages()[msgid] ?? msgid, values);
}

/** Where a plural msgid's forms sit in the catalog (app/web/script_words.py writes them). */
export const PLURAL_KEY = "\u0004plural";

/**
 * The form of `singular` / `plural` that `count` takes in the page's language ("1 game", "5
 * games"; Japanese has one form), `{n}` and the other placeholders filled. The catalog carries a
 * plural entry's forms (gettext's msgid_plural, in the language's order) joined by NUL.
 * @param {string} singular
 * @param {string} plural
 * @param {number} count
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function nt(singular, plural, count, values = {}) {
  const forms = messages()[singular + PLURAL_KEY]?.split("\u0000") ?? [singular, plural];
  const one = new Intl.PluralRules(forms.length > 1 ? "en" : lang()).select(count) === "one";
  const text = forms.length === 1 ? forms[0] : forms[one ? 0 : 1];
  return format(text, { n: count, ...values });
}

/** Marks a msgid for extraction where it is translated later (tables of codes). */
export const N_ = (/** @type {string} */ msgid) => msgid;

/** The language of the page ("en", "ja", …). */
export function lang() {
  return language ?? (globalThis.document?.documentElement.lang || "en");
}

/** Join sentences the way the page's language does (no space between Japanese sentences). */
/** @param {(string | null | undefined | false)[]} parts */
export function sentences(parts) {
  return parts.filter(Boolean).join(lang() === "ja" ? "" : " ");
}

/** @type {Record<string, string>} */
const ERRORS = {
  illegal_conditional: N_("A move of that line is not allowed there."),
  conflicting_conditionals: N_("Two lines answer the same moves differently."),
  too_many_conditionals: N_("Too many lines."),
  no_conditional_moves: N_("This game takes no conditional moves."),
  your_turn: N_("It is your turn: play your move."),
  already_on_vacation: N_("You are already on vacation."),
  no_vacation_left: N_("You have no vacation left this year."),
  not_on_vacation: N_("You are not on vacation."),
  not_your_turn: N_("It is not your turn."),
  stale_ply: N_("The game moved on meanwhile; the board is now up to date."),
  time_out: N_("Your time ran out."),
  illegal_move: N_("That move is not allowed here."),
  not_a_player: N_("You are not playing in this game."),
  match_not_active: N_("This game is not in play."),
  rate_limited: N_("Too many requests: wait a moment and try again."),
  cannot_claim: N_("Your opponent may still come back: try again a little later."),
  cannot_abort: N_("Everyone has moved: resign instead of aborting."),
  seek_closed: N_("That game was taken or cancelled."),
  rated_needs_account: N_("Rated games are for accounts: sign up first (your games stay yours)."),
  csrf_failed: N_("Your session expired: please reload the page and retry."),
  unauthenticated: N_("Choose a name first."),
  server_busy: N_("The server is busy: try again in a moment."),
  // the analysis board
  match_in_progress: N_("This game hides cards: its positions can be studied once it is over."),
  invalid_state: N_("This board position is no longer valid: open it again from its link."),
  state_expired: N_("This board position is no longer valid: open it again from its link."),
  state_wrong_game: N_("This board position is no longer valid: open it again from its link."),
  invalid_record: N_("This game record cannot be read."),
  too_many_moves: N_("Too many moves for the analysis board."),
};

/** A readable message for a typed error ({code, message}) in the page's language: the server's
 * own words in English (they can be more precise), the catalog's for a known code otherwise.
 * @param {unknown} error  what a call threw: an ApiError or SocketError ({code, message}), or any Error
 * @returns {string} */
export function errorText(error) {
  const { code, message } = /** @type {{code?: string | null, message?: string | null}} */ (error);
  if (lang() === "en" && message) return message;
  const msgid = code ? ERRORS[code] : undefined;
  return msgid ? t(msgid) : message || String(code ?? "");
}
