// @ts-check
// Account notices on every page, from the account event socket
// (WS /api/v1/stream/event/ws, the same events as GET /api/v1/stream/event):
//   - an in-page notice for your turn in a correspondence game, a challenge to you, a game of yours
//     that started, a draw / takeback / end / rematch offer, and a moderator's act that concerns
//     you — each shown once (remembered in localStorage), never for the match the page already shows;
//   - the tab title carries the number of notices on screen: "(2) Stepwell";
//   - opt-in browser notifications (the Notification API) for correspondence moves and challenges,
//     when the tab is hidden;
//   - the header's "my games" count and list, the games waiting for your move first;
//   - a person you follow (with notices on) started a game: a link to watch it.
// Everything a server sends is put on the page with textContent only.
import { api } from "./api.js";
import { byId, el, LiveSocket, socketUrl, t } from "./kit/index.js";

/**
 * What an account event is about (the fields noticeFor reads).
 * @typedef {{id: string, game: string, ply?: number, url: string, opponents?: string[],
 *   time_control?: {kind: string} | null}} EventGame
 * @typedef {{id: number, action: string, reason: string, until?: string | null}} ModerationNotice
 * @typedef {{type: string, kind?: string, game?: EventGame,
 *   challenge?: {id: string, game: string, creator?: {name: string}, fixed_deal?: boolean},
 *   direction?: "in" | "out", notice?: ModerationNotice, user?: {id: number, name: string}}} AccountEvent
 * @typedef {{key: string, kind: string, text: string, url: string, browser: boolean}} Notice
 */

const SETTLE_MS = 1500; // the events a (re)connection starts with are not news
const SEEN_KEY = "stepwell.notices.seen";
const SEEN_LIMIT = 300;

const $ = byId;
const titles = JSON.parse($("game-titles")?.textContent || "{}");
const currentMatch = document.getElementById("match")?.dataset.matchId ?? null;
const baseTitle = document.title;
let settledAt = Infinity;

/** @returns {string[]} */
function seen() {
  try { return JSON.parse(localStorage.getItem(SEEN_KEY) || "[]"); } catch { return []; }
}

/** True the first time a key is seen (in any tab of this browser). */
/** @param {string} key */
function firstTime(key) {
  const keys = seen();
  if (keys.includes(key)) return false;
  keys.push(key);
  try { localStorage.setItem(SEEN_KEY, JSON.stringify(keys.slice(-SEEN_LIMIT))); } catch { /* private mode */ }
  return true;
}

/** @param {string} id */
const gameTitle = (id) => titles[id] ?? id;
/** @param {(string | null)[] | null | undefined} list */
const names = (list) => (list ?? []).filter(Boolean).join(", ") || "…";

/** The notice an account event deserves: {key, kind, text, url, browser}, or null.
 * @param {AccountEvent} event
 * @returns {Notice | null} */
export function noticeFor(event) {
  const game = event.game;
  if (event.type === "yourTurn" && game?.time_control?.kind === "correspondence") {
    return { key: `turn:${game.id}:${game.ply}`, kind: "turn", url: game.url, browser: true,
      text: t("Your turn in {game} against {names}", { game: gameTitle(game.game), names: names(game.opponents) }) };
  }
  if (event.type === "challenge" && event.challenge && event.direction !== "out") {
    const challenge = event.challenge;
    const values = { name: challenge.creator?.name ?? "…", game: gameTitle(challenge.game) };
    return { key: `challenge:${challenge.id}`, kind: "challenge", url: "/", browser: true,
      text: challenge.fixed_deal
        ? t("{name} challenges you to {game} with a deal they fixed", values)
        : t("{name} challenges you to {game}", values) };
  }
  if (event.type === "gameStart" && game) {
    return { key: `start:${game.id}`, kind: "start", url: game.url, browser: false,
      text: t("Your game of {game} has started", { game: gameTitle(game.game) }) };
  }
  if (event.type === "followedGame" && game) {
    return { key: `followed:${game.id}`, kind: "followed", url: game.url, browser: true,
      text: t("{name} started a game of {game}: watch it", { name: event.user?.name ?? "…", game: gameTitle(game.game) }) };
  }
  if (event.type === "moderation" && event.notice) {
    const notice = event.notice;
    const values = { reason: notice.reason, until: (notice.until ?? "").slice(0, 16).replace("T", " ") };
    /** @type {Record<string, string>} */
    const texts = {
      hide_line: t("A moderator hid your chat message: {reason}", values),
      mute: t("A moderator muted you from chat until {until} UTC: {reason}", values),
      unmute: t("A moderator ended your chat mute: {reason}", values),
      dismiss_report: t("A moderator reviewed your report and took no action: {reason}", values),
    };
    if (!texts[notice.action]) return null;
    return { key: `moderation:${notice.id}`, kind: "moderation", url: "/account/moderation",
      browser: false, text: texts[notice.action] };
  }
  if (event.type === "offer" && game) {
    const values = { names: names(game.opponents), game: gameTitle(game.game) };
    /** @type {Record<string, string>} */
    const texts = {
      draw: t("{names} offers a draw in {game}", values),
      takeback: t("{names} asks to take back a move in {game}", values),
      end: t("{names} proposes to end and score {game}", values),
      rematch: t("{names} wants a rematch of {game}", values),
    };
    if (!event.kind || !texts[event.kind]) return null;
    return { key: `offer:${game.id}:${event.kind}:${game.ply}`, kind: "offer", url: game.url,
      browser: false, text: texts[event.kind] };
  }
  return null;
}

// -- notices on the page ---------------------------------------------------------------------------

function updateTitle() {
  const count = $("notices").children.length;
  document.title = count ? `(${count}) ${baseTitle}` : baseTitle;
}

/** @param {Notice} notice */
function show(notice) {
  const item = el("div", { class: `notice ${notice.kind}`, "data-notice": notice.kind }, $("notices"));
  el("a", { href: notice.url }, item, notice.text);
  el("button", { type: "button", "aria-label": t("Dismiss"), title: t("Dismiss") }, item, "×")
    .addEventListener("click", () => { item.remove(); updateTitle(); });
  updateTitle();
  if (notice.browser && document.hidden && globalThis.Notification?.permission === "granted") {
    try {
      const popup = new Notification("Stepwell", { body: notice.text, tag: notice.key });
      popup.onclick = () => { globalThis.focus(); location.href = notice.url; };
    } catch { /* some browsers only notify from a service worker */ }
  }
}

/** @param {AccountEvent} event */
function received(event) {
  if (["yourTurn", "gameStart", "gameFinish", "challenge", "challengeCanceled", "offer"].includes(event.type)) {
    refreshGames();
  }
  const notice = noticeFor(event);
  if (!notice) return;
  const matchId = event.game?.id;
  if (matchId && matchId === currentMatch) { firstTime(notice.key); return; } // the page shows it
  if (!firstTime(notice.key)) return;
  // known before this page opened (a moderator's act is never sent again on connect: it is news)
  if (Date.now() < settledAt && event.type !== "moderation") return;
  show(notice);
}

// -- my games --------------------------------------------------------------------------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let refreshTimer;

function refreshGames() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(loadGames, 200);
}

async function loadGames() {
  let games;
  try { games = await api("GET", "/api/v1/me/games"); } catch { return; }
  const count = $("my-games-count");
  const toMove = games.filter((game) => game.your_turn).length;
  count.textContent = String(toMove || games.length);
  count.classList.toggle("to-move", toMove > 0);
  count.hidden = games.length === 0;
  count.title = toMove ? t("{n} waiting for your move", { n: toMove }) : "";
  const items = $("my-games-items");
  items.replaceChildren();
  if (!games.length) el("span", { class: "muted" }, items, t("No games in play."));
  for (const game of games) { // the server lists the games waiting for your move first
    const link = el("a", { href: `/m/${game.id}`, "data-game": game.id }, items);
    el("span", {}, link, `${gameTitle(game.game)} · ${names(game.opponents)}`);
    el("span", { class: game.your_turn ? "yours" : "muted" }, link,
      game.status === "waiting" ? t("Waiting for players to join") : game.your_turn ? t("Your turn") : t("Their turn"));
  }
}

function wireMenu() {
  const button = $("my-games-button");
  const list = $("my-games-list");
  button.addEventListener("click", () => {
    list.hidden = !list.hidden;
    button.setAttribute("aria-expanded", String(!list.hidden));
    if (!list.hidden) loadGames();
  });
  document.addEventListener("click", (event) => {
    if (!list.hidden && !/** @type {Element} */ (event.target).closest("#my-games")) {
      list.hidden = true;
      button.setAttribute("aria-expanded", "false");
    }
  });
  const permission = $("notify-permission");
  if (globalThis.Notification && Notification.permission === "default") {
    permission.hidden = false;
    permission.addEventListener("click", async () => {
      await Notification.requestPermission();
      permission.hidden = Notification.permission !== "default";
    });
  }
}

function start() {
  wireMenu();
  loadGames();
  new LiveSocket(socketUrl("/api/v1/stream/event/ws"), {
    onMessage: (message) => received(/** @type {AccountEvent} */ (message)),
    onStatus(live) { if (live) settledAt = Date.now() + SETTLE_MS; },
  }).start();
}

start();
