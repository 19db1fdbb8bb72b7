// @ts-check
// Screen-reader announcements: every move (yours, the opponent's, a bot's) is read out through one
// polite live region, in the page's language, e.g. "Alice (Light): a1 to b2. Your turn."
// Every board mounts a moveAnnouncer and feeds it each payload it draws:
//
//   const announcer = moveAnnouncer(ctx, { describe: (move, payload) => …, seatLabel });
//   update(payload) { …draw…; announcer.update(payload); }
//
// The text is built by moveAnnouncement() (pure, tested in tests/js); the live region is a single
// visually hidden element the kit adds to the page (#board-announcer).
import { lang, N_, sentences, t } from "./i18n.js";
import { isMyTurn, playerName } from "./turn.js";

/** @import { BoardPayload } from "./boards.js" */
/**
 * How a board words its moves for the announcer.
 * @typedef {object} AnnounceOptions
 * @property {(move: string, payload: BoardPayload) => string} [describe]  the move in words
 * @property {((payload: BoardPayload, seat: number) => string) | null} [seatLabel]  the seat's colour
 */

const WORDS = {
  step: N_("{from} to {to}"),
  said: N_("{name} ({colour}): {move}"),
  saidPlain: N_("{name}: {move}"),
  you: N_("You"),
  yourTurn: N_("Your turn"),
  toMove: N_("Player {n} to move"),
  over: N_("Game over"),
  pass: N_("Pass"),
};

/** A move string in words: "a1-b2" is "a1 to b2"; "pass" is "Pass"; anything else as it is.
 * @param {string | null | undefined} move
 * @returns {string} */
export function movePhrase(move) {
  const step = /^([a-z]\d+)-([a-z]\d+)$/.exec(move ?? "");
  if (step) return t(WORDS.step, { from: step[1], to: step[2] });
  if (move === "pass") return t(WORDS.pass);
  return move ?? "";
}

/** What to read out when a board goes from showing ply `seenPly` to `payload` (pure), or null:
 * only one ply forward (the next move arriving, or the next step of a replay) is a move to read;
 * the first drawing, a jump or a step back says nothing. `describe(move, payload)` words the
 * move for this game, `seatLabel(payload, seat)` names the seat's colour.
 * @param {number | null | undefined} seenPly
 * @param {BoardPayload | null | undefined} payload
 * @param {AnnounceOptions} [options]
 * @returns {string | null} */
export function moveAnnouncement(seenPly, payload, { describe = movePhrase, seatLabel = null } = {}) {
  if (seenPly === null || seenPly === undefined || !payload || payload.ply !== seenPly + 1) return null;
  const last = payload.last_move;
  if (!last || (last.ply !== undefined && last.ply !== payload.ply)) return null;
  // The analysis board (payload.analysis) seats the viewer at every turn: there nobody is "you".
  const board = payload.analysis === true;
  const name = !board && last.seat === payload.your_seat && payload.your_seat !== null
    ? t(WORDS.you) : playerName(payload, last.seat, `#${last.seat + 1}`);
  const colour = seatLabel ? seatLabel(payload, last.seat) : "";
  const move = describe(last.move, payload) || last.move;
  const said = colour ? t(WORDS.said, { name, colour, move }) : t(WORDS.saidPlain, { name, move });
  let after = "";
  if (payload.status === "finished") after = t(WORDS.over);
  else if (board && payload.to_move !== null && payload.to_move !== undefined) {
    after = t(WORDS.toMove, { n: payload.to_move + 1 });
  } else if (isMyTurn(payload)) after = t(WORDS.yourTurn);
  const stop = lang() === "ja" ? "。" : ".";
  return sentences([said, after].filter(Boolean).map((text) => (/[.。!?！？]$/.test(text) ? text : text + stop)));
}

/** The page's one live region for board announcements (created on first use).
 * @returns {HTMLElement} */
export function liveRegion(doc = globalThis.document) {
  let region = doc.getElementById("board-announcer");
  if (!region) {
    region = doc.createElement("div");
    region.id = "board-announcer";
    region.className = "visually-hidden";
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    doc.body.append(region);
  }
  return region;
}

// What was said in the last moment: two moves arriving together (yours, then the bot's answer)
// are read as one text rather than the second cutting the first off.
/** @type {{text: string, at: number}[]} */
let recent = [];
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/** Read `text` out (politely). The same text twice is read twice: the region is emptied first.
 * @param {string | null | undefined} text
 * @param {number} [now] */
export function announce(text, now = Date.now()) {
  if (!text) return;
  const region = liveRegion();
  recent = [...recent.filter((said) => now - said.at < 1500), { text, at: now }];
  region.textContent = "";
  clearTimeout(timer);
  timer = setTimeout(() => { region.textContent = sentences(recent.map((said) => said.text)); }, 30);
}

/** Announce each move a board is given (nothing on read-only boards: thumbnails, diagrams).
 * @param {{readOnly?: boolean}} ctx
 * @param {AnnounceOptions} [options] */
export function moveAnnouncer(ctx, options = {}) {
  /** @type {number | null} */
  let seen = null;
  if (!ctx.readOnly) liveRegion(); // exists before the first move, so screen readers watch it
  return {
    /** @param {BoardPayload | null | undefined} payload */
    update(payload) {
      if (ctx.readOnly || !payload) return;
      const text = moveAnnouncement(seen, payload, options);
      seen = payload.ply;
      if (text) announce(text);
    },
  };
}
