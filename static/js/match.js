// The match page shell: seats, status, result, move list, links and the live websocket.
// The board itself is drawn by /static/js/boards/<game>.js, which exports
//   mountBoard(root, {submit(move), t(key)}) -> {update(match)}
// and optionally seatInfo(match, seat) -> {label, colour}.
import { api, t } from "./api.js";

const root = document.getElementById("match");
const matchId = root.dataset.matchId;
let match = JSON.parse(document.getElementById("initial-match").textContent);
let moves = [];
let socket = null;
let retryDelay = 500;
let board = null;
let boardModule = null;

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
    showError(error.message);
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
    item.append(swatch, name);
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
  if (result.reason === "resignation") text += ` (${t("reason_resignation")})`;
  return text;
}

function renderStatus() {
  const line = $("status-line");
  line.classList.toggle("my-turn", match.status === "active" && match.to_move === match.your_seat);
  if (match.status === "waiting") line.textContent = t("waiting_players");
  else if (match.status === "finished") line.textContent = t("game_over");
  else if (match.to_move === match.your_seat) line.textContent = t("your_turn");
  else line.textContent = t("their_turn", { name: playerName(match.to_move) });
  const banner = $("result-banner");
  banner.hidden = match.status !== "finished";
  banner.textContent = resultText();
  $("resign-button").hidden = !(match.your_seat !== null && match.status === "active");
  $("invite-row").hidden = match.status !== "waiting";
  const joinForm = document.querySelector(".join-form");
  if (joinForm && match.status !== "waiting") joinForm.hidden = true;
}

function renderMoves() {
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
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${record.ply}.`;
    const text = document.createElement("span");
    text.className = "move";
    text.textContent = record.move;
    item.append(number, text);
    item.title = playerName(record.seat);
    if (index === moves.length - 1) item.className = "last";
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

async function loadMoves() {
  moves = await api("GET", `/api/v1/matches/${matchId}/moves`);
  renderMoves();
}

function applyMatch(next) {
  if (next.ply < match.ply) return; // an older message overtaken by a newer one
  const gap = next.ply > moves.length + 1 || (next.ply === moves.length + 1 && !next.last_move);
  match = next;
  if (gap) loadMoves();
  else if (next.ply === moves.length + 1) { moves.push(next.last_move); renderMoves(); }
  renderSeats();
  renderStatus();
  board?.update(match);
  root.dataset.ply = String(match.ply);
  root.dataset.status = match.status;
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
    if (message.type === "state") {
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
  $("resign-button").addEventListener("click", async () => {
    if (!confirm(t("confirm_resign"))) return;
    try { applyMatch(await api("POST", `/api/v1/matches/${matchId}/resign`)); }
    catch (error) { showError(error.message); }
  });
}

async function start() {
  boardModule = await import(`./boards/${match.game}.js`);
  board = boardModule.mountBoard($("board"), { submit, t, actions: $("board-actions") });
  wireLinks();
  applyMatch(match);
  await loadMoves();
  connect();
}

start();
