// @ts-check
// The Watch page: live games as mini boards (each game's own renderer, read-only), players,
// ratings and spectator counts; kept current over /api/v1/live/ws.
import { api } from "./api.js";
import { botBadge, byId, el, LiveSocket, loadRenderer, mountReadOnly, socketUrl, t } from "./kit/index.js";
import { ratingMark, seatName } from "./names.js";

/** @import { Board, BoardPayload, Renderer } from "./kit/boards.js" */
/** A live match (GET /api/v1/live and the live socket's "match" messages).
 * @typedef {BoardPayload & {id: string, game: string, spectators?: number}} LiveMatch */

const grid = byId("live-grid");
const empty = byId("no-live");
const titles = JSON.parse(document.getElementById("game-titles-live")?.textContent || "{}");
const assets = JSON.parse(document.getElementById("game-boards")?.textContent || "{}");
/** @type {Map<string, {root: HTMLElement, board: Board, info: HTMLElement, image: HTMLElement}>} match id -> its card */
const cards = new Map();
const filters = document.getElementById("game-filter");
let shownGame = new URLSearchParams(location.search).get("game") || ""; // "" = every game

/** @param {string} game */
const rendererOf = (game) => loadRenderer(assets[game]?.board);

/** @param {LiveMatch} match @param {Renderer} module */
function playersLine(match, module) {
  const line = el("div", { class: "live-players" });
  for (const seat of match.seats) {
    const item = el("span", { class: "live-player" + (match.to_move === seat.seat ? " to-move" : "") }, line);
    const swatch = el("span", { class: "swatch" }, item);
    swatch.style.background = module.seatInfo?.(match, seat.seat)?.colour ?? "#999";
    item.append(seatName(match, seat.seat, "?"));
    const rating = ratingMark(seat.user?.rating);
    if (rating) item.append(rating);
    const bot = botBadge(seat.user);
    if (bot) item.append(" ", bot);
  }
  return line;
}

/** A mini board in words: the game, the move, the players and whose turn it is.
 * @param {LiveMatch} match */
function positionWords(match) {
  const players = match.seats.map((seat) => seatName(match, seat.seat, "?")).join(" – ");
  const values = { game: titles[match.game] ?? match.game, ply: match.ply, players };
  if (match.to_move === null || match.to_move === undefined) return t("{game} board, move {ply}: {players}", values);
  return t("{game} board, move {ply}: {players}; {name} to move", { ...values, name: seatName(match, match.to_move, "?") });
}

/** @param {LiveMatch} match */
function retire(match) {
  const gone = cards.get(match.id);
  if (!gone) return;
  gone.root.dataset.status = match.status;
  setTimeout(() => { gone.root.remove(); gone.board.destroy?.(); cards.delete(match.id); refreshEmpty(); }, 4000);
}

/** @param {LiveMatch} match @param {boolean} [attach] false: the card is drawn apart from the page (the caller places it) */
async function upsert(match, attach = true) {
  if (match.status !== "active") { retire(match); return; }
  const module = await rendererOf(match.game);
  let card = cards.get(match.id);
  if (!card) {
    const root = el("a", { class: "live-card", href: `/m/${match.id}`, "data-match": match.id, "data-game": match.game });
    el("h2", { class: "live-title" }, root, titles[match.game] ?? match.game);
    // One image to assistive technology, named by positionWords(); the drawing inside is hidden
    // from it (a mini board's cells would otherwise be read one by one).
    const image = el("div", { class: "live-board", role: "img" }, root);
    const boardBox = el("div", { "aria-hidden": "true" }, image);
    const info = el("div", { class: "live-info" }, root);
    if (attach) grid.prepend(root);
    const board = mountReadOnly(boardBox, module);
    card = { root, board, info, image };
    cards.set(match.id, card);
  }
  card.board.update(match);
  card.image.setAttribute("aria-label", positionWords(match));
  const spectators = match.spectators ?? 0;
  const ply = t("move {ply}", { ply: match.ply });
  const watching = t("{n} watching", { n: spectators });
  const watchers = el("div", { class: "muted small live-watchers", "data-spectators": spectators }, null,
    [ply, watching].join(" · "));
  card.info.replaceChildren(playersLine(match, module), watchers);
  card.root.dataset.ply = String(match.ply);
  refreshEmpty();
}

function refreshEmpty() {
  let visible = 0;
  for (const card of cards.values()) {
    card.root.hidden = shownGame !== "" && card.root.dataset.game !== shownGame;
    if (!card.root.hidden) visible += 1;
  }
  empty.hidden = visible > 0;
}

// The game filter: one button per game (and "All games"), kept in the address as ?game=.
function wireFilter() {
  if (!filters) return;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (filters.querySelectorAll("button[data-game]"))) {
    button.setAttribute("aria-pressed", String(button.dataset.game === shownGame));
    button.addEventListener("click", () => {
      shownGame = button.dataset.game ?? "";
      for (const other of filters.querySelectorAll("button[data-game]")) {
        other.setAttribute("aria-pressed", String(other === button));
      }
      const url = new URL(location.href);
      if (shownGame) url.searchParams.set("game", shownGame); else url.searchParams.delete("game");
      history.replaceState(null, "", url);
      refreshEmpty();
    });
  }
}

async function start() {
  wireFilter();
  new LiveSocket(socketUrl("/api/v1/live/ws"), {
    onMessage(message) { if (message.type === "match") upsert(/** @type {LiveMatch} */ (/** @type {unknown} */ (message))); },
    onStatus(live) { grid.dataset.live = live ? "yes" : "no"; },
  }).start();
  const shown = (await api("GET", "/api/v1/live")).reverse();
  // Every renderer first; then each card drawn apart from the page, one per task (a long task
  // would hold the page's input), and all placed in one go: a card placed on its own would push
  // the ones placed before it down the page.
  await Promise.all(shown.map((match) => rendererOf(match.game)));
  for (const match of shown) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await upsert(match, false);
  }
  for (const match of shown) {
    const card = cards.get(match.id);
    if (card && !card.root.isConnected) grid.prepend(card.root);
  }
  grid.dataset.loaded = "yes";
  refreshEmpty();
}

start();
