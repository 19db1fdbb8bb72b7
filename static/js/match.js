// The match page shell: seats, status, result, move list, links and the live websocket.
// The board itself is drawn by /static/js/boards/<game>.js, which exports
//   mountBoard(root, {submit(move), t(key)}) -> {update(match)}
// and optionally seatInfo(match, seat) -> {label, colour}.
import { api, errorText, t } from "./api.js";
import { Clocks, renderActions } from "./match-actions.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
let match = JSON.parse(document.getElementById("initial-match").textContent);
let moves = [];
let socket = null;
let retryDelay = 500;
let board = null;
let boardModule = null;
let presence = { spectators: 0, online_seats: [] };
let frames = null; // replay: the public view after every ply (loaded when the game is over)
let replayPly = null; // null = live position
const ratings = JSON.parse(document.getElementById("seat-ratings")?.textContent || "{}");
const clocks = new Clocks();
const viewingReplayLink = new URLSearchParams(location.search).has("ply"); // don't follow rematches

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $("move-error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function submit(move) {
  showError("");
  try {
    const updated = await api("POST", `/api/v1/matches/${matchId}/moves`, { move, ply: match.ply });
    applyMatch(updated);
  } catch (error) {
    showError(errorText(error));
    if (error.code === "stale_ply") refetch();
  }
}

function playerName(seat) {
  const user = match.seats[seat]?.user;
  return user ? user.name : t("open_seat");
}

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
    item.dataset.seat = seat.seat;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = info.colour;
    swatch.title = info.label;
    const name = document.createElement("span");
    name.className = seat.user ? "name" : "open";
    name.textContent = seat.user ? seat.user.name : t("open_seat");
    const dot = document.createElement("span");
    const online = presence.online_seats.includes(seat.seat) || seat.user?.kind === "bot";
    dot.className = "presence-dot" + (online ? " online" : "");
    dot.title = online ? t("online") : t("offline");
    if (seat.user) item.append(dot);
    item.append(swatch, name);
    const rating = ratings[seat.seat];
    if (rating) {
      const badge = document.createElement("span");
      badge.className = "rating muted";
      badge.textContent = `${rating.display}${rating.provisional ? "?" : ""}`;
      item.append(badge);
    }
    if (match.clock) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.clockSeat = seat.seat;
      item.append(clock);
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
}

function resultText() {
  const result = match.result;
  if (!result) return "";
  const winners = result.winners;
  let text;
  if (winners.length === 0) text = t("draw");
  else if (winners.length > 1) text = t("shared_win", { names: winners.map(playerName).join(", ") });
  else if (match.your_seat !== null) {
    text = winners[0] === match.your_seat ? t("you_win") : t("you_lose");
    text += ` — ${t("winner", { name: playerName(winners[0]) })}`;
  } else text = t("winner", { name: playerName(winners[0]) });
  const reasons = { resignation: "reason_resignation", timeout: "reason_timeout",
    "opponent left": "reason_left", "draw agreed": "reason_draw_agreed" };
  if (reasons[result.reason]) text += ` (${t(reasons[result.reason])})`;
  else if (result.reason?.startsWith("agreed end")) text += ` (${t("reason_agreed_end")})`;
  return text;
}

function renderStatus() {
  const line = $("status-line");
  line.classList.toggle("my-turn", match.status === "active" && match.to_move === match.your_seat);
  if (match.status === "waiting") line.textContent = t("waiting_players");
  else if (match.status === "aborted") line.textContent = t("aborted");
  else if (match.status === "finished") line.textContent = t("game_over");
  else if (match.to_move === match.your_seat) line.textContent = t("your_turn");
  else line.textContent = t("their_turn", { name: playerName(match.to_move) });
  const banner = $("result-banner");
  banner.hidden = match.status !== "finished";
  banner.textContent = resultText();
  refreshActions();
  $("invite-row").hidden = match.status !== "waiting";
  const joinForm = document.querySelector(".join-form");
  if (joinForm && match.status !== "waiting") joinForm.hidden = true;
  const botsForm = document.querySelector(".bots-form");
  if (botsForm && match.status !== "waiting") botsForm.hidden = true;
}

function refreshActions() {
  const iHaveMoved = moves.some((record) => record.seat === match.your_seat);
  renderActions($("match-actions"), match, { apply: applyMatch, showError, presence, iHaveMoved });
}

function renderMoves() {
  refreshActions();
  const list = $("move-list");
  list.replaceChildren();
  if (moves.length === 0) {
    const empty = document.createElement("li");
    empty.style.listStyle = "none";
    empty.textContent = t("no_moves_yet");
    list.append(empty);
  }
  moves.forEach((record, index) => {
    const item = document.createElement("li");
    item.dataset.ply = record.ply;
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

async function loadMoves() {
  moves = await api("GET", `/api/v1/matches/${matchId}/moves`);
  renderMoves();
}

function applyMatch(next) {
  if (next.version < match.version) return; // an older message overtaken by a newer one
  const gap = next.ply !== moves.length + 1 && next.ply !== moves.length
    || (next.ply === moves.length + 1 && !next.last_move);
  match = next;
  if (gap) loadMoves();
  else if (next.ply === moves.length + 1) { moves.push(next.last_move); renderMoves(); }
  renderSeats();
  renderStatus();
  clocks.update(match);
  if (replayPly === null) board?.update(match);
  const rematch = match.offers?.rematch_match;
  if (rematch && match.your_seat !== null && !viewingReplayLink && root.dataset.rematch !== rematch) {
    root.dataset.rematch = rematch;
    location.href = `/m/${rematch}`;  // both players follow the accepted rematch
  }
  root.dataset.ply = String(match.ply);
  root.dataset.status = match.status;
  if (match.status === "finished" && !frames) loadReplay();
}

function renderPresence() {
  refreshActions();
  const line = $("presence");
  line.textContent = presence.spectators > 0 ? t("watching", { n: presence.spectators }) : "";
  line.dataset.spectators = String(presence.spectators);
  renderSeats();
}

// -- replay of a finished game: step through the public view of every ply ------------------------

async function loadReplay() {
  frames = await api("GET", `/api/v1/matches/${matchId}/replay`);
  $("replay").hidden = false;
  const asked = new URLSearchParams(location.search).get("ply");
  const wanted = asked === null || asked === "" ? NaN : Number(asked);
  renderMoves();
  if (Number.isInteger(wanted) && wanted >= 0 && wanted < frames.length - 1) showPly(wanted);
  else updateReplayBar();
}

function showPly(ply) {
  if (!frames) return;
  const last = frames.length - 1;
  ply = Math.max(0, Math.min(last, ply));
  replayPly = ply === last ? null : ply;
  const frame = frames[ply];
  if (replayPly === null) board.update(match);
  else board.update({ ...match, view: frame.view, ply, legal_moves: [], to_move: null,
    last_move: frame.move ? { ply, seat: frame.seat, move: frame.move } : null, status: "finished" });
  root.dataset.replayPly = String(ply);
  const url = new URL(location.href);
  if (replayPly === null) url.searchParams.delete("ply"); else url.searchParams.set("ply", ply);
  history.replaceState(null, "", url);
  renderMoves();
  updateReplayBar();
}

function updateReplayBar() {
  const last = frames.length - 1;
  const ply = replayPly ?? last;
  $("replay-position").textContent = t("ply_of", { ply, total: last });
}

function wireReplay() {
  const current = () => replayPly ?? frames.length - 1;
  const steps = { start: () => 0, previous: () => current() - 1, next: () => current() + 1,
    end: () => frames.length - 1 };
  for (const button of $("replay").querySelectorAll("[data-step]")) {
    button.addEventListener("click", () => showPly(steps[button.dataset.step]()));
  }
  document.addEventListener("keydown", (event) => {
    if (!frames || event.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "start", End: "end",
      ArrowUp: "start", ArrowDown: "end" };
    if (keys[event.key]) { event.preventDefault(); showPly(steps[keys[event.key]]()); }
  });
}

async function refetch() {
  applyMatch(await api("GET", `/api/v1/matches/${matchId}`));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/v1/matches/${matchId}/ws`);
  socket.addEventListener("open", () => {
    retryDelay = 500;
    root.dataset.live = "yes";
    showError("");
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "presence") {
      presence = message;
      renderPresence();
    } else if (message.type === "state") {
      const { type, ...next } = message;
      if (next.ply > match.ply + 1) refetch(); // missed something: resynchronise
      applyMatch(next);
    }
  });
  socket.addEventListener("close", () => {
    root.dataset.live = "no";
    if (match.status === "finished") return;
    showError(t("connection_lost"));
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  });
}

function wireLinks() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = $(button.dataset.copy);
      input.select();
      try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand?.("copy"); }
      button.textContent = t("copied");
    });
  }
}

async function start() {
  boardModule = await import(`./boards/${match.game}.js`);
  board = boardModule.mountBoard($("board"), { submit, t, actions: $("board-actions") });
  wireLinks();
  wireReplay();
  applyMatch(match);
  await loadMoves();
  connect();
}

start();
