// @ts-check
// Clocks and the life of a match on the match page: ticking clocks per seat, abort / resign /
// offers (draw, end, takeback, rematch) / claim victory, and following a rematch.
import { api } from "./api.js";
import { errorText, N_, t } from "./kit/index.js";

const LOW_TIME_MS = 20_000;

/** A clock's time left as shown: "4:05", "0:09.5", or "2d 3h" for correspondence.
 * @param {number} ms @param {string} kind */
export function formatClock(ms, kind) {
  if (kind === "correspondence" && ms >= 3_600_000) {
    const hours = Math.floor(ms / 3_600_000);
    return hours >= 24 ? `${Math.floor(hours / 24)}d ${hours % 24}h` : `${hours}h ${Math.floor(ms / 60_000) % 60}m`;
  }
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (ms < 10_000) return `0:${String(Math.max(0, ms / 1000).toFixed(1)).padStart(4, "0")}`;
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Clocks that tick locally between server updates (the server stays authoritative). */
/** A match's clock as the server sends it.
 * @typedef {{kind: string, remaining_ms: number[], ticking: number | null, first_move_ms?: number | null,
 *   paused?: boolean}} ClockState */

export class Clocks {
  constructor() {
    /** @type {ClockState | null} */
    this.clock = null;
    /** @type {string | undefined} */
    this.status = undefined;
    this.receivedAt = 0;
    setInterval(() => this.render(), 200);
  }

  /** @param {{clock?: ClockState | null, status: string}} match */
  update(match) {
    this.clock = match.clock ?? null;
    this.status = match.status;
    this.receivedAt = performance.now();
    this.render();
  }

  /** @param {number} seat @returns {number | null} null without a clock */
  remaining(seat) {
    if (!this.clock) return null;
    let ms = this.clock.remaining_ms[seat];
    if (this.status === "active" && this.clock.ticking === seat) ms -= performance.now() - this.receivedAt;
    return Math.max(0, ms);
  }

  render() {
    if (!this.clock) return;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock-seat]"))) {
      const seat = Number(node.dataset.clockSeat);
      const ms = /** @type {number} */ (this.remaining(seat)); // there is a clock
      node.textContent = formatClock(ms, this.clock.kind);
      node.classList.toggle("ticking", this.status === "active" && this.clock.ticking === seat);
      node.classList.toggle("low", this.clock.kind === "realtime" && ms < LOW_TIME_MS);
    }
    const first = document.getElementById("first-move");
    if (first) {
      const left = this.clock.first_move_ms;
      first.hidden = !(this.status === "active" && left !== null && left !== undefined);
      if (left !== null && left !== undefined && !first.hidden) {
        const ms = Math.max(0, left - (performance.now() - this.receivedAt));
        first.textContent = t("First move within {time}, or the game is called off", { time: formatClock(ms, this.clock.kind) });
      }
    }
  }
}

// What each offer kind says, to the one who made it, to the others, and on its button.
const OFFER_WORDS = {
  draw: { mine: N_("You offered a draw."), theirs: N_("Your opponent offers a draw."), propose: N_("Offer a draw") },
  end: { mine: N_("You proposed to end the game and score the position."),
    theirs: N_("Your opponent proposes to end the game and score the position."), propose: N_("Propose to end and score") },
  takeback: { mine: N_("You asked to take back your move."), theirs: N_("Your opponent asks to take back their move."),
    propose: N_("Ask for a takeback") },
  rematch: { mine: N_("You offered a rematch."), theirs: N_("Your opponent wants a rematch."), propose: N_("Rematch") },
};

function actionButton(label, action, primary = false) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.dataset.action = action.name;
  if (primary) button.className = "primary";
  button.addEventListener("click", action.run);
  return button;
}

function caller(match, apply, showError) {
  const url = `/api/v1/matches/${match.id}`;
  return (path, confirmText) => async () => {
    if (confirmText && !confirm(confirmText)) return;
    try { apply(await api("POST", `${url}${path}`)); } catch (error) { showError(errorText(error)); }
  };
}

function linkButton(label, href, name, extra = {}) {
  const link = document.createElement("a");
  link.className = "button";
  link.href = href;
  link.textContent = label;
  link.dataset.action = name;
  for (const [key, value] of Object.entries(extra)) link.setAttribute(key, value);
  return link;
}

/** The move record as text, one move a line ("12. c3-d4"), for the clipboard. */
export function movesText(moves) {
  return moves.map((record) => `${record.ply}. ${record.move}`).join("\n");
}

/**
 * What to do once a game is over, under the result: rematch (players), a new game,
 * back to the lobby, and the moves to download or copy. Empty while the game goes on.
 */
export function renderAfterGame(container, match, { apply, showError, moves }) {
  container.replaceChildren();
  const over = match.status === "finished" || match.status === "aborted";
  container.hidden = !over;
  if (!over) return;
  const call = caller(match, apply, showError);
  const me = match.your_seat;
  const offers = match.offers || {};
  const seats = offers.rematch;
  if (me !== null && me !== undefined && seats) {
    const notice = document.createElement("div");
    notice.className = "offer-notice";
    notice.dataset.offer = "rematch";
    if (seats.includes(me)) {
      notice.append(t(OFFER_WORDS.rematch.mine), " ");
      notice.append(actionButton(t("Withdraw"), { name: "withdraw-rematch", run: call("/offers/rematch/decline") }));
    } else {
      notice.append(t(OFFER_WORDS.rematch.theirs), " ");
      notice.append(actionButton(t("Accept"), { name: "accept-rematch", run: call("/offers/rematch/accept") }, true));
      notice.append(actionButton(t("Decline"), { name: "decline-rematch", run: call("/offers/rematch/decline") }));
    }
    container.append(notice);
  }
  const buttons = document.createElement("div");
  buttons.className = "match-buttons";
  if (offers.rematch_match) {
    const link = linkButton(t("Go to the rematch"), `/m/${offers.rematch_match}`, "go-rematch");
    link.classList.add("primary");
    buttons.append(link);
  } else if (match.tournament) { // the tournament pairs the next game: no rematch
    const back = linkButton(t("Back to the tournament"), `/tournaments/${match.tournament}`, "back-to-tournament");
    if (me !== null && me !== undefined) back.classList.add("primary");
    buttons.append(back);
  } else if (me !== null && me !== undefined && !seats) {
    buttons.append(actionButton(t("Rematch"), { name: "offer-rematch", run: call("/offers/rematch") }, true));
  }
  buttons.append(linkButton(t("New game"), `/#create-${match.game}`, "new-game"));
  buttons.append(linkButton(t("Back to the lobby"), "/#lobby", "lobby"));
  buttons.append(linkButton(t("Download the moves"), `/api/v1/matches/${match.id}/export?format=text`, "download-moves",
    { download: `stepwell-${match.game}-${match.id}.txt` }));
  const copy = actionButton(t("Copy the moves"), { name: "copy-moves", async run() {
    try {
      await navigator.clipboard.writeText(movesText(moves()));
      copy.textContent = t("Moves copied");
    } catch {
      showError(t("This browser did not allow copying: use Download instead."));
    }
  } });
  buttons.append(copy);
  container.append(buttons);
}

/** The buttons and offer notices under the move list, rebuilt on every update. */
export function renderActions(container, match, { apply, showError, presence, iHaveMoved }) {
  container.replaceChildren();
  const me = match.your_seat;
  if (me === null || me === undefined) return;
  const call = caller(match, apply, showError);
  const offers = match.offers || {};
  const notices = document.createElement("div");
  notices.className = "offer-notices";
  const buttons = document.createElement("div");
  buttons.className = "match-buttons";

  for (const kind of ["draw", "end", "takeback"]) {
    const seats = offers[kind];
    if (!seats) continue;
    const notice = document.createElement("div");
    notice.className = "offer-notice";
    notice.dataset.offer = kind;
    if (seats.includes(me)) {
      notice.append(t(OFFER_WORDS[kind].mine), " ");
      notice.append(actionButton(t("Withdraw"), { name: `withdraw-${kind}`, run: call(`/offers/${kind}/decline`) }));
    } else {
      notice.append(t(OFFER_WORDS[kind].theirs), " ");
      notice.append(actionButton(t("Accept"), { name: `accept-${kind}`, run: call(`/offers/${kind}/accept`) }, true));
      notice.append(actionButton(t("Decline"), { name: `decline-${kind}`, run: call(`/offers/${kind}/decline`) }));
    }
    notices.append(notice);
  }

  if (match.status === "active" && !match.eliminated.includes(me)) {
    if (match.ply < match.seats.length) {
      buttons.append(actionButton(t("Abort"), { name: "abort", run: call("/abort", t("Call this game off? It will count for nobody.")) }));
    } else {
      buttons.append(actionButton(t("Resign"), { name: "resign", run: call("/resign", t("Resign this game?")) }));
    }
    for (const kind of match.offer_kinds) {
      if (offers[kind] || (kind === "takeback" && !iHaveMoved)) continue;
      buttons.append(actionButton(t(OFFER_WORDS[kind]?.propose ?? kind), { name: `offer-${kind}`, run: call(`/offers/${kind}`) }));
    }
    const others = match.seats.filter((s) => s.seat !== me && !match.eliminated.includes(s.seat)
      && s.user?.kind !== "bot");  // bots never leave
    const allAway = others.length > 0 && others.every((s) => !presence.online_seats.includes(s.seat));
    if (match.time_control?.kind === "realtime" && allAway) {
      buttons.append(actionButton(t("Claim victory"), { name: "claim", run: call("/claim-victory") }));
    }
  }
  container.append(notices, buttons);
}
