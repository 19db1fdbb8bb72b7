// @ts-check
// The match page shell: seats, status, result, move list, links and the live websocket.
// The board is drawn by the game's renderer (static/games/<id>/board.js, or the generic one),
// loaded from the URL in #match[data-board]; the contract is in static/js/kit/boards.js.
import { api } from "./api.js";
import { Clocks, renderActions, renderAfterGame } from "./match-actions.js";
import { sendMove } from "./moves.js";
import { conditionalPanel } from "./conditional.js";
import { wireWhy } from "./why.js";
import { movePreviews } from "./preview.js";
import { isBotSeat, ratingMark, seatName } from "./names.js";
import {
  byId, errorText, isMyTurn, LiveSocket, loadRenderer, N_, botBadge, socketUrl, t,
} from "./kit/index.js";

/** @import { Board, BoardPayload, Renderer, ResultStep } from "./kit/boards.js" */
/**
 * The match payload (GET /api/v1/matches/{id} and the socket's "state"): what a board draws and
 * what the page around it shows.
 * @typedef {BoardPayload & {id: string, version: number, clock?: import("./match-actions.js").ClockState | null,
 *   eliminated?: number[], offers?: Record<string, any>}} MatchPayload
 * @typedef {{ply: number, seat: number, move: string}} MoveRecord  one row of the move list
 * @typedef {{view: BoardPayload["view"], move?: string | null, seat?: number}} ReplayFrame  the
 *   public view after a ply, and the move that led to it
 */

const $ = byId;
const root = $("match");
const matchId = root.dataset.matchId;
/** @type {MatchPayload} */
let match = JSON.parse($("initial-match").textContent ?? "");
/** @type {MoveRecord[]} */
let moves = [];
/** @type {LiveSocket | null} */
let socket = null;
/** @type {Board | null} */
let board = null;
/** @type {Renderer | null} */
let boardModule = null;
/** @type {{type?: string, spectators: number, online_seats: number[]}} */
let presence = { spectators: 0, online_seats: [] };
/** @type {ReplayFrame[] | null} replay: the public view after every ply (loaded when the game is over) */
let frames = null;
/** @type {number | null} null = live position */
let replayPly = null;
const ratings = JSON.parse(document.getElementById("seat-ratings")?.textContent || "{}");
const gameReasons = JSON.parse(document.getElementById("result-reasons")?.textContent || "{}"); // code -> label
const clocks = new Clocks();
const conditionals = conditionalPanel(matchId ?? "");
const viewingReplayLink = new URLSearchParams(location.search).has("ply"); // don't follow rematches
// Moves go over the match socket when it is open (REST otherwise): the server acknowledges each
// one ({"type": "ack"}) or answers with a typed error, like REST.
const SOCKET_MOVES = true;

// Site-wide result reasons (a game's own reasons come with their label from the server).
/** @type {Record<string, string>} */
const REASONS = {
  resigned: N_("by resignation"), resignation: N_("by resignation"),
  time_out: N_("on time"), timeout: N_("on time"),
  opponent_left: N_("the opponent left"), "opponent left": N_("the opponent left"),
  draw_agreed: N_("by agreement"), "draw agreed": N_("by agreement"),
  agreed_end: N_("position scored by agreement"),
  last_standing: N_("last player standing"),
};

/** @param {string} message */
function showError(message) {
  const box = $("move-error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function submit(move) {
  showError("");
  try {
    const answer = await sendMove({ socket, useSocket: SOCKET_MOVES, move, ply: match.ply,
      rest: (text, ply) => api("POST", `/api/v1/matches/${matchId}/moves`, { move: text, ply }) });
    if ("match" in answer) applyMatch(answer.match);
    else await reached(answer.ack.ply); // the new state follows the ack on the socket
  } catch (error) {
    showError(errorText(error));
    if (/** @type {{code?: string}} */ (error).code === "stale_ply") refetch();
  }
}

// analysis-replay.js: "Play it" on a hint plays that move as a click on the board would
document.addEventListener("match:play", (event) => submit(/** @type {CustomEvent} */ (event).detail.move));

// Moves acknowledged over the socket settle once their state has arrived (or after 3 s), so a
// board never sees its submit() done while it still shows the old position.
/** @type {Set<{ply: number, resolve: () => void}>} */
const plyWaiters = new Set();

/** @param {number} ply @returns {Promise<void>} */
function reached(ply) {
  if (match.ply >= ply) return Promise.resolve();
  return new Promise((/** @type {(value?: void) => void} */ resolve) => {
    const waiter = { ply, resolve };
    plyWaiters.add(waiter);
    setTimeout(() => { plyWaiters.delete(waiter); resolve(); }, 3000);
  });
}

function settleWaiters() {
  for (const waiter of plyWaiters) {
    if (match.ply >= waiter.ply) { plyWaiters.delete(waiter); waiter.resolve(); }
  }
}

/** @param {number | null} seat */
function playerName(seat) {
  return seatName(match, seat, t("open seat"));
}

/** @param {number} seat */
function seatInfo(seat) {
  return boardModule?.seatInfo?.(match, seat) ?? { label: `#${seat + 1}`, colour: "#999" };
}

function renderSeats() {
  const list = $("seats");
  list.replaceChildren();
  for (const seat of match.seats) {
    const info = seatInfo(seat.seat);
    const item = document.createElement("li");
    item.className = "seat" + (match.to_move === seat.seat ? " to-move" : "");
    item.dataset.seat = String(seat.seat);
    item.dataset.colour = info.colour;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = info.colour;
    swatch.title = info.label;
    const name = document.createElement("span");
    name.className = seat.user ? "name" : "open";
    name.textContent = playerName(seat.seat);
    const dot = document.createElement("span");
    const online = presence.online_seats.includes(seat.seat) || seat.user?.kind === "bot";
    dot.className = "presence-dot" + (online ? " online" : "");
    dot.title = online ? t("online") : t("offline");
    if (seat.user) item.append(dot);
    item.append(swatch, name);
    const bot = botBadge(seat.user);
    if (bot) item.append(bot);
    const change = match.result?.rating_changes?.find((c) => c.seat === seat.seat);
    const badge = ratingMark(change ? { ...ratings[seat.seat], display: change.after } : ratings[seat.seat]);
    if (badge) item.append(badge);
    if (match.clock) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.clockSeat = String(seat.seat);
      item.append(clock);
    }
    if (/** @type {{vacation?: boolean}} */ (seat).vacation) {
      const away = document.createElement("span");
      away.className = "vacation-mark";
      away.textContent = t("on vacation");
      away.title = t("On vacation: their correspondence clock stands still.");
      item.append(away);
      item.classList.add("away");
    }
    if (match.eliminated?.includes(seat.seat)) item.classList.add("eliminated");
    if (match.your_seat === seat.seat) {
      const you = document.createElement("span");
      you.className = "you";
      you.textContent = `(${t("you")})`;
      item.append(you);
    }
    list.append(item);
  }
  document.dispatchEvent(new CustomEvent("match:seats")); // analysis-replay.js: the graph's colours
}

// Japanese puts an honorific after a person's name, never after a program's: bots get their own msgids.
/** @param {number} seat */
function winsText(seat) {
  return isBotSeat(match, seat) ? t("{bot} wins", { bot: playerName(seat) }) : t("{name} wins", { name: playerName(seat) });
}

function resultText() {
  const result = match.result;
  if (!result) return "";
  const winners = result.winners;
  const code = result.reason ?? "";
  const reason = result.reason_label ?? gameReasons[code] ?? (REASONS[code] ? t(REASONS[code]) : "");
  let text;
  if (winners.length === 0) text = t("Draw");
  else if (winners.length > 1) {
    // "Shared win on points: Ann, Ben": the reason already says the win is shared
    const names = winners.map(playerName).join(", ");
    if (reason) return t("{reason}: {names}", { reason: reason[0].toUpperCase() + reason.slice(1), names });
    text = t("Shared win: {names}", { names });
  } else if (match.your_seat !== null) {
    // your own win needs no name (nor an honorific after it); a loss names who won
    text = winners[0] === match.your_seat ? t("You win!") : `${t("You lose")} — ${winsText(winners[0])}`;
  } else text = winsText(winners[0]);
  if (reason && reason.toLowerCase() !== text.toLowerCase()) text += ` (${reason})`;
  else if (result.reason?.startsWith("agreed end")) text += ` (${t(REASONS.agreed_end)})`;
  return text;
}

/** A rated game's rating changes, one line per seat: "Ann: 25.0 → 27.6 (+2.6)". */
function ratingChanges() {
  const rows = match.status === "finished" ? match.result?.rating_changes : null;
  if (!rows?.length) return null;
  const list = document.createElement("ul");
  list.className = "rating-changes";
  list.setAttribute("aria-label", t("Rating changes"));
  for (const row of rows) {
    const item = document.createElement("li");
    item.dataset.seat = String(row.seat);
    const delta = `${row.delta > 0 ? "+" : row.delta < 0 ? "−" : "±"}${Math.abs(row.delta).toFixed(1)}`;
    item.className = row.delta > 0 ? "up" : row.delta < 0 ? "down" : "";
    const who = row.seat === match.your_seat ? t("Your rating") : playerName(row.seat);
    item.textContent = t("{name}: {before} → {after} ({delta})", {
      name: who, before: row.before.toFixed(1), after: row.after.toFixed(1), delta });
    list.append(item);
  }
  return list;
}

// A game may explain its result step by step (its renderer's explainResult, e.g. Stairs'
// three-step decision), each step marking the squares it looked at on the final position.
/** @type {ResultStep[]} */
let resultSteps = [];

function renderResultSteps() {
  const finished = match.status === "finished";
  resultSteps = finished ? boardModule?.explainResult?.(match, playerName) ?? [] : [];
  const list = $("result-steps");
  list.replaceChildren(...resultSteps.map((step) => {
    const item = document.createElement("li");
    item.textContent = step.text;
    if (step.decided) item.className = "decided";
    return item;
  }));
  if (board?.mark && Object.values(resultSteps.at(-1)?.marks ?? {}).some((squares) => squares?.length)) {
    const legend = document.createElement("li");
    legend.className = "result-legend";
    legend.textContent = t("On the board: the winner's squares framed in green, the other side's dashed in red.");
    list.append(legend);
  }
  list.hidden = resultSteps.length === 0;
  markResult();
}

function markResult() {
  const mark = board?.mark;
  if (!mark) return;
  mark();
  const marks = replayPly === null ? resultSteps.at(-1)?.marks ?? {} : {};
  for (const [kind, squares] of Object.entries(marks)) mark(squares, kind);
}

function renderStatus() {
  const line = $("status-line");
  line.classList.toggle("my-turn", isMyTurn(match));
  if (match.status === "waiting") line.textContent = t("Waiting for players to join");
  else if (match.status === "aborted") line.textContent = t("Game aborted");
  else if (match.status === "finished") line.textContent = ""; // the result banner says it
  else if (match.to_move === match.your_seat) line.textContent = t("Your turn");
  else if (isBotSeat(match, match.to_move)) {
    line.textContent = t("{bot} is thinking…", { bot: playerName(match.to_move) });
    line.classList.add("thinking");
  } else if (match.clock?.paused) {
    line.textContent = t("{name} is on vacation: the clock stands still", { name: playerName(match.to_move) });
  } else line.textContent = t("Waiting for {name}", { name: playerName(match.to_move) });
  if (!isBotSeat(match, match.to_move) || match.status !== "active") line.classList.remove("thinking");
  const banner = $("result-banner");
  banner.hidden = match.status !== "finished";
  banner.textContent = resultText();
  const changes = ratingChanges();
  if (changes) banner.append(changes);
  renderResultSteps();
  refreshActions();
  $("waiting-box").hidden = match.status !== "waiting";
  const joinForm = /** @type {HTMLElement | null} */ (document.querySelector(".join-form"));
  if (joinForm && match.status !== "waiting") joinForm.hidden = true;
}

function refreshActions() {
  const iHaveMoved = moves.some((record) => record.seat === match.your_seat);
  renderActions($("match-actions"), match, { apply: applyMatch, showError, presence, iHaveMoved });
  if (afterGameShown !== afterGameKey()) {
    afterGameShown = afterGameKey();
    renderAfterGame($("after-game"), match, { apply: applyMatch, showError, moves: () => moves });
  }
}

// The after-game bar is rebuilt only when what it shows changes (a "Moves copied" stays put).
/** @type {string | null} */
let afterGameShown = null;
const afterGameKey = () => JSON.stringify([match.status, match.your_seat, match.offers?.rematch ?? null,
  match.offers?.rematch_match ?? null]);

function renderMoves() {
  refreshActions();
  document.dispatchEvent(new CustomEvent("replay:moves", // analysis-replay.js: "Analyse from here"
    { detail: { moves: moves.map((m) => m.move) } }));
  const list = $("move-list");
  list.replaceChildren();
  if (moves.length === 0) {
    const empty = document.createElement("li");
    empty.style.listStyle = "none";
    empty.textContent = t("No moves yet");
    list.append(empty);
  }
  moves.forEach((record, index) => {
    const item = document.createElement("li");
    item.dataset.ply = String(record.ply);
    if (frames) item.addEventListener("click", () => showPly(record.ply));
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${record.ply}.`;
    const text = document.createElement("span");
    text.className = "move";
    text.textContent = record.move;
    item.append(number, text);
    item.title = playerName(record.seat);
    const current = replayPly ?? moves.length;
    if (record.ply === current) item.className = "last";
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

// The /moves fetch under way and the ply it was asked at: never two at once, and one more only
// if the game moved on meanwhile.
/** @type {Promise<void> | null} */
let movesRequest = null;
let movesAskedAt = -1;

/** @returns {Promise<void>} */
function loadMoves() {
  if (movesRequest) return movesRequest;
  movesAskedAt = match.ply;
  movesRequest = api("GET", `/api/v1/matches/${matchId}/moves`)
    .then((list) => { moves = list; renderMoves(); })
    .finally(() => {
      movesRequest = null;
      if (match.ply > movesAskedAt && moves.length < match.ply) loadMoves();
    });
  return movesRequest;
}

/** @param {MatchPayload} next */
function applyMatch(next) {
  if (next.version < match.version) return; // an older message overtaken by a newer one
  const gap = next.ply !== moves.length + 1 && next.ply !== moves.length
    || (next.ply === moves.length + 1 && !next.last_move);
  match = next;
  if (gap) loadMoves();
  else if (next.ply === moves.length + 1) { moves.push(/** @type {MoveRecord} */ (next.last_move)); renderMoves(); }
  renderSeats();
  renderStatus();
  clocks.update(match);
  conditionals?.update(/** @type {any} */ (match));
  if (replayPly === null) previews.show(match);
  const rematch = match.offers?.rematch_match;
  if (rematch && match.your_seat !== null && !viewingReplayLink && root.dataset.rematch !== rematch) {
    root.dataset.rematch = rematch;
    location.href = `/m/${rematch}`;  // both players follow the accepted rematch
  }
  root.dataset.ply = String(match.ply);
  root.dataset.status = match.status;
  settleWaiters();
  if (match.status === "finished" && !frames) loadReplay();
}

function renderPresence() {
  refreshActions();
  const line = $("presence");
  // before the game starts, whoever has the page open is a friend with the invite, not a watcher
  const waiting = match.status === "waiting";
  line.textContent = presence.spectators === 0 || (waiting && match.your_seat === null) ? ""
    : waiting ? t("Someone has opened your invite link") : t("{n} watching", { n: presence.spectators });
  line.dataset.spectators = String(presence.spectators);
  renderSeats();
}

// -- replay of a finished game: step through the public view of every ply ------------------------

async function loadReplay() {
  /** @type {ReplayFrame[]} */
  const loaded = await api("GET", `/api/v1/matches/${matchId}/replay`);
  frames = loaded;
  $("replay").hidden = false;
  const asked = new URLSearchParams(location.search).get("ply");
  const wanted = asked === null || asked === "" ? NaN : Number(asked);
  renderMoves();
  if (Number.isInteger(wanted) && wanted >= 0 && wanted < loaded.length - 1) showPly(wanted);
  else updateReplayBar();
}

/** @param {number} ply */
function showPly(ply) {
  if (!frames || !board) return;
  const last = frames.length - 1;
  ply = Math.max(0, Math.min(last, ply));
  replayPly = ply === last ? null : ply;
  const frame = frames[ply];
  if (replayPly === null) board.update(match);
  else board.update({ ...match, view: frame.view, ply, legal_moves: [], to_move: null,
    last_move: frame.move ? { ply, seat: /** @type {number} */ (frame.seat), move: frame.move } : null, status: "finished" });
  root.dataset.replayPly = String(ply);
  markResult(); // the deciding squares belong to the final position only
  const url = new URL(location.href);
  if (replayPly === null) url.searchParams.delete("ply"); else url.searchParams.set("ply", String(ply));
  history.replaceState(null, "", url);
  renderMoves();
  updateReplayBar();
  document.dispatchEvent(new CustomEvent("replay:ply", { detail: { ply } })); // analysis-replay.js
}

function updateReplayBar() {
  if (!frames) return;
  const last = frames.length - 1;
  const ply = replayPly ?? last;
  $("replay-position").textContent = t("Move {ply} of {total}", { ply, total: last });
}

function wireReplay() {
  // The analysis panel (static/js/analysis-replay.js) jumps to a ply and draws a preferred move.
  document.addEventListener("replay:show", (event) => showPly(/** @type {CustomEvent} */ (event).detail.ply));
  document.addEventListener("replay:draw", (event) => board?.update({ ...match, .../** @type {CustomEvent} */ (event).detail,
    legal_moves: [], to_move: null, status: "finished" }));
  const last = () => (frames ? frames.length - 1 : 0);
  const current = () => replayPly ?? last();
  /** @type {Record<string, () => number>} */
  const steps = { start: () => 0, previous: () => current() - 1, next: () => current() + 1, end: last };
  for (const button of $("replay").querySelectorAll("[data-step]")) {
    const step = /** @type {HTMLElement} */ (button).dataset.step ?? "";
    button.addEventListener("click", () => showPly(steps[step]()));
  }
  document.addEventListener("keydown", (event) => {
    if (!frames || /** @type {Element} */ (event.target).closest("input, textarea, select")) return;
    /** @type {Record<string, string>} */
    const keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "start", End: "end",
      ArrowUp: "start", ArrowDown: "end" };
    if (keys[event.key]) { event.preventDefault(); showPly(steps[keys[event.key]]()); }
  });
}

async function refetch() {
  applyMatch(await api("GET", `/api/v1/matches/${matchId}`));
}

/** @param {import("./kit/socket.js").SocketMessage} message */
function received(message) {
  document.dispatchEvent(new CustomEvent("match:message", { detail: message })); // chat.js listens
  if (message.type === "presence") {
    presence = /** @type {typeof presence} */ (message);
    renderPresence();
  } else if (message.type === "state") {
    const { type, ...next } = message;
    if (next.ply > match.ply + 1) refetch(); // missed something: resynchronise
    applyMatch(/** @type {MatchPayload} */ (next));
  }
}

function connect() {
  socket = new LiveSocket(socketUrl(`/api/v1/matches/${matchId}/ws`), {
    onMessage: received,
    ply: () => match.ply,
    pongTimeoutMs: 10000,
    onStatus(live, why) {
      root.dataset.live = live ? "yes" : "no";
      if (live) showError("");
      // A restart (a deploy) reconnects within 1.5 s: nothing to tell the player.
      else if (why !== "restart" && match.status !== "finished") showError(t("Connection lost — reconnecting…"));
    },
  }).start();
}

function wireLinks() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = /** @type {HTMLInputElement} */ ($(/** @type {HTMLElement} */ (button).dataset.copy ?? ""));
      input.select();
      try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand?.("copy"); }
      button.textContent = t("Copied");
    });
  }
}

// A move waits for its confirmation when the person's "Confirm moves" setting asks for it: the
// board draws its preview meanwhile (static/js/preview.js).
const previews = movePreviews({
  boardRoot: $("board"), actions: $("board-actions"), panel: $("move-preview"), settingHolder: root,
  board: () => board,
  live: () => (replayPly === null && isMyTurn(match) ? match : null),
  tapAttributes: () => boardModule?.tapAttributes ?? [],
  fetch: (move, ply) => api("POST", `/api/v1/matches/${matchId}/preview`, { move, ply }),
  commit: submit,
  showError,
  describe: (move, payload) => boardModule?.describeMove?.(move, payload) ?? "",
});

async function start() {
  const module = await loadRenderer(root.dataset.board);
  boardModule = module;
  board = module.mountBoard($("board"), { submit: previews.submit, t, actions: $("board-actions"), readOnly: false });
  wireWhy({ board: $("board"), attributes: module.tapAttributes, matchId,
    getMatch: () => (replayPly === null ? match : null), show: showError });
  wireLinks();
  wireReplay();
  applyMatch(match); // fetches the move list when the page opens after the first move
  if (match.ply === 0) renderMoves();
  connect();
}

start();
