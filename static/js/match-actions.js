// Clocks and the life of a match on the match page: ticking clocks per seat, abort / resign /
// offers (draw, end, takeback, rematch) / claim victory, and following a rematch.
import { api, errorText, t } from "./api.js";

const LOW_TIME_MS = 20_000;

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
export class Clocks {
  constructor() {
    this.clock = null;
    this.receivedAt = 0;
    setInterval(() => this.render(), 200);
  }

  update(match) {
    this.clock = match.clock;
    this.status = match.status;
    this.receivedAt = performance.now();
    this.render();
  }

  remaining(seat) {
    if (!this.clock) return null;
    let ms = this.clock.remaining_ms[seat];
    if (this.status === "active" && this.clock.ticking === seat) ms -= performance.now() - this.receivedAt;
    return Math.max(0, ms);
  }

  render() {
    if (!this.clock) return;
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(node.dataset.clockSeat);
      const ms = this.remaining(seat);
      node.textContent = formatClock(ms, this.clock.kind);
      node.classList.toggle("ticking", this.status === "active" && this.clock.ticking === seat);
      node.classList.toggle("low", this.clock.kind === "realtime" && ms < LOW_TIME_MS);
    }
    const first = document.getElementById("first-move");
    if (first) {
      const left = this.clock.first_move_ms;
      first.hidden = !(this.status === "active" && left !== null && left !== undefined);
      if (!first.hidden) {
        const ms = Math.max(0, left - (performance.now() - this.receivedAt));
        first.textContent = t("first_move_in", { time: formatClock(ms, this.clock.kind) });
      }
    }
  }
}

function actionButton(label, action, primary = false) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.dataset.action = action.name;
  if (primary) button.className = "primary";
  button.addEventListener("click", action.run);
  return button;
}

/** The buttons and offer notices under the move list, rebuilt on every update. */
export function renderActions(container, match, { apply, showError, presence, iHaveMoved }) {
  container.replaceChildren();
  const me = match.your_seat;
  if (me === null || me === undefined) return;
  const url = `/api/v1/matches/${match.id}`;
  const call = (path, confirmText) => async () => {
    if (confirmText && !confirm(confirmText)) return;
    try { apply(await api("POST", `${url}${path}`)); } catch (error) { showError(errorText(error)); }
  };
  const offers = match.offers || {};
  const notices = document.createElement("div");
  notices.className = "offer-notices";
  const buttons = document.createElement("div");
  buttons.className = "match-buttons";

  for (const kind of ["draw", "end", "takeback", "rematch"]) {
    const seats = offers[kind];
    if (!seats) continue;
    const notice = document.createElement("div");
    notice.className = "offer-notice";
    notice.dataset.offer = kind;
    if (seats.includes(me)) {
      notice.append(t(`offered_${kind}`), " ");
      notice.append(actionButton(t("withdraw"), { name: `withdraw-${kind}`, run: call(`/offers/${kind}/decline`) }));
    } else {
      notice.append(t(`offer_${kind}`), " ");
      notice.append(actionButton(t("accept"), { name: `accept-${kind}`, run: call(`/offers/${kind}/accept`) }, true));
      notice.append(actionButton(t("decline"), { name: `decline-${kind}`, run: call(`/offers/${kind}/decline`) }));
    }
    notices.append(notice);
  }

  if (match.status === "active" && !match.eliminated.includes(me)) {
    if (match.ply < match.seats.length) {
      buttons.append(actionButton(t("abort"), { name: "abort", run: call("/abort", t("confirm_abort")) }));
    } else {
      buttons.append(actionButton(t("resign_button"), { name: "resign", run: call("/resign", t("confirm_resign")) }));
    }
    for (const kind of match.offer_kinds) {
      if (offers[kind] || (kind === "takeback" && !iHaveMoved)) continue;
      buttons.append(actionButton(t(`propose_${kind}`), { name: `offer-${kind}`, run: call(`/offers/${kind}`) }));
    }
    const others = match.seats.filter((s) => s.seat !== me && !match.eliminated.includes(s.seat)
      && s.user?.kind !== "bot");  // bots never leave
    const allAway = others.length > 0 && others.every((s) => !presence.online_seats.includes(s.seat));
    if (match.time_control?.kind === "realtime" && allAway) {
      buttons.append(actionButton(t("claim_victory"), { name: "claim", run: call("/claim-victory") }));
    }
  }
  if ((match.status === "finished" || match.status === "aborted") && !offers.rematch && !offers.rematch_match) {
    buttons.append(actionButton(t("rematch"), { name: "offer-rematch", run: call("/offers/rematch") }, true));
  }
  if (offers.rematch_match) {
    const link = document.createElement("a");
    link.className = "button primary";
    link.href = `/m/${offers.rematch_match}`;
    link.textContent = t("go_to_rematch");
    buttons.append(link);
  }
  container.append(notices, buttons);
}
