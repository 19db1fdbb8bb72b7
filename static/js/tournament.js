// @ts-check
// One tournament: live standings, every round's games with links, join / withdraw / pause (and, for its
// creator, built-in bots). Drawn from GET /api/v1/tournaments/{id}; redrawn on each change that
// WS /api/v1/tournaments/{id}/ws announces.
import { api } from "./api.js";
import { tournamentError } from "./tournament-errors.js";
import { botBadge, byId, el, LiveSocket, N_, playerName, socketUrl, t } from "./kit/index.js";

/** @type {any} the tournament as GET /api/v1/tournaments/{id} gives it */
let data = JSON.parse(byId("tournament-data").textContent ?? "");
const statusLine = byId("tournament-status");
const standings = /** @type {HTMLElement} */ (document.querySelector("#standings tbody"));
const pairings = byId("pairings");
const joinButton = byId("join-button");
const withdrawButton = byId("withdraw-button");
const startButton = byId("start-button");
const pauseButton = byId("pause-button");
const resumeButton = byId("resume-button");
const pausedNote = byId("paused-note");
const actionError = byId("action-error");
const path = `/api/v1/tournaments/${data.id}`;
const viewerId = Number(byId("standings").dataset.viewer) || null;

const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang, {
  dateStyle: "medium", timeStyle: "short" }) : "");
const number = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, ""));

function statusText() {
  if (data.status === "upcoming") return t("Starts {when}", { when: when(data.starts_at) });
  if (data.status === "finished") return t("Finished");
  if (data.kind === "arena") {
    const left = Math.max(0, Math.round((Date.parse(data.ends_at) - Date.now()) / 1000));
    return t("Running: {m}:{s} left", { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") });
  }
  return t("Round {n} of {total}", { n: data.round, total: data.rounds });
}

function nameOf(user) {
  const span = el("span", { class: "player-name" });
  // built-in bots read in the page's language, as on the match page
  el("a", { href: `/u/${user.id}` }, span, playerName({ seats: [{ seat: 0, user }] }, 0));
  const bot = botBadge(user);
  if (bot) span.append(" ", bot);
  return span;
}

function drawStandings() {
  standings.replaceChildren();
  for (const row of data.standings) {
    const tr = el("tr", { class: row.withdrawn ? "withdrawn" : "" }, standings);
    if (viewerId && row.user.id === viewerId) tr.classList.add("me");
    el("td", {}, tr, String(row.rank));
    const who = el("td", { class: row.on_fire ? "on-fire" : "" }, tr);
    who.append(nameOf(row.user));
    if (row.paused) who.append(" ", el("span", { class: "paused-badge" }, null, t("paused")));
    el("td", {}, tr, number(row.score));
    if (data.kind === "swiss") {
      el("td", {}, tr, number(row.buchholz));
      el("td", {}, tr, number(row.sonneborn_berger));
    } else {
      el("td", {}, tr, String(row.games));
    }
  }
  if (!data.standings.length) {
    const tr = el("tr", {}, standings);
    el("td", { colspan: "5", class: "muted empty" }, tr, t("Nobody has joined yet."));
  }
}

const STATUS_WORDS = { playing: N_("playing"), finished: N_("finished"), bye: N_("bye"), void: N_("not counted") };

function gameLine(game, index) {
  const line = el("div", { class: "pairing" });
  el("span", { class: "board-no" }, line, data.kind === "arena" ? "" : `${game.board || index + 1}.`);
  const players = el("span", { class: "players" }, line);
  game.seats.forEach((seat, i) => {
    if (i) players.append(data.kind === "duplicate" ? ", " : " – ");
    const item = el("span", { class: seat.result === 1 && data.kind !== "duplicate" ? "winner" : "" }, players);
    item.append(nameOf(seat.user));
    if (seat.berserk) item.append(" ", el("span", { class: "berserk-badge", title: t("Berserk: half the clock, no increment") }, null, t("berserk")));
    if (seat.points !== null && game.status !== "bye") item.append(` (${number(seat.points)})`);
  });
  const tail = el("span", { class: "pairing-state" }, line);
  el("span", { class: "muted" }, tail, t(STATUS_WORDS[game.status]));
  if (game.url) {
    const mine = game.seats.some((seat) => seat.user.id === viewerId);
    const word = game.status !== "playing" ? t("Replay") : mine ? t("Your game") : t("Watch");
    el("a", { href: game.url, class: mine && game.status === "playing" ? "your-game" : "" }, tail, word);
    const me = game.seats.find((seat) => seat.user.id === viewerId);
    if (data.kind === "arena" && game.status === "playing" && me && !me.berserk) {
      const button = el("button", { type: "button", class: "berserk-button", "data-action": "berserk",
        title: t("Half your clock and no increment, before your first move: a win with 7 or more of your moves scores a point more.") }, line, t("Berserk"));
      button.addEventListener("click", () => act("POST", "/berserk"));
    }
  }
  return line;
}

function drawPairings() {
  pairings.replaceChildren();
  const rounds = new Map();
  for (const game of data.games) {
    if (!rounds.has(game.round)) rounds.set(game.round, []);
    rounds.get(game.round).push(game);
  }
  const order = [...rounds.keys()].sort((a, b) => b - a); // newest first
  for (const round of order) {
    const block = el("div", { class: "round-block" }, pairings);
    if (data.kind !== "arena") el("h3", {}, block, t("Round {n}", { n: round }));
    const games = rounds.get(round);
    (data.kind === "arena" ? [...games].reverse() : games).forEach((game, i) => block.append(gameLine(game, i)));
    const info = data.rounds_info.find((r) => r.number === round);
    if (data.kind === "duplicate") {
      el("p", { class: "deal" }, block, info?.deal
        ? t("Deal: start cards {cards}; paths {paths}", { cards: info.deal.start_cards.join(" "), paths: info.deal.path_deck.join(" ") })
        : t("The deal is shown when every table has finished."));
    }
  }
  if (!data.games.length) el("p", { class: "muted" }, pairings, t("No games yet."));
}

function drawActions() {
  const you = data.you;
  const open = data.status !== "finished";
  joinButton.hidden = !(you && open && !you.joined);
  withdrawButton.hidden = !(you && open && you.joined);
  const arena = data.kind === "arena" && data.status === "running" && you?.joined;
  pauseButton.hidden = !(arena && !you.paused);
  resumeButton.hidden = !(arena && you.paused);
  pausedNote.hidden = !(arena && you.paused);
  startButton.hidden = !(you?.creator && data.status === "upcoming");
}

function draw() {
  statusLine.textContent = statusText();
  drawStandings();
  drawPairings();
  drawActions();
}

async function refresh() {
  data = await api("GET", path);
  draw();
}

/** @param {string} method @param {string} suffix @param {unknown} [body] */
async function act(method, suffix, body) {
  actionError.textContent = "";
  try {
    data = await api(method, path + suffix, body);
    draw();
  } catch (error) {
    actionError.textContent = tournamentError(error);
  }
}

joinButton.addEventListener("click", () => act("POST", "/join"));
withdrawButton.addEventListener("click", () => act("POST", "/withdraw"));
pauseButton.addEventListener("click", () => act("POST", "/pause"));
resumeButton.addEventListener("click", () => act("POST", "/join"));
startButton.addEventListener("click", () => act("POST", "/start"));
document.getElementById("bot-button")?.addEventListener("click", () =>
  act("POST", "/bots", { level: /** @type {HTMLSelectElement} */ (byId("bot-level")).value }));

/** @type {ReturnType<typeof setTimeout> | null} */
let pending = null;
new LiveSocket(socketUrl(`${path}/ws`), {
  onMessage: (message) => {
    if (message.type !== "tournament" || pending) return;
    pending = setTimeout(() => { pending = null; refresh().catch(() => {}); }, 100);
  },
  onStatus: (live) => { if (live) refresh().catch(() => {}); },
}).start();
setInterval(() => { statusLine.textContent = statusText(); }, 1000);
draw();
