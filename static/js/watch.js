// The Watch page: live games as mini boards (each game's own renderer, read-only), players,
// ratings and spectator counts; kept current over /api/v1/live/ws.
import { api, t } from "./api.js";

const grid = document.getElementById("live-grid");
const empty = document.getElementById("no-live");
const cards = new Map(); // match id -> {root, board, match}
const modules = {};

async function boardModule(game) {
  modules[game] ??= import(`./boards/${game}.js`);
  return modules[game];
}

function playersLine(match, module) {
  const line = document.createElement("div");
  line.className = "live-players";
  for (const seat of match.seats) {
    const item = document.createElement("span");
    item.className = "live-player" + (match.to_move === seat.seat ? " to-move" : "");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = module.seatInfo?.(match, seat.seat)?.colour ?? "#999";
    const rating = seat.user?.rating ? ` (${seat.user.rating.display}${seat.user.rating.provisional ? "?" : ""})` : "";
    item.append(swatch, document.createTextNode((seat.user?.name ?? "?") + rating));
    line.append(item);
  }
  return line;
}

async function upsert(match) {
  if (match.status !== "active") {
    const gone = cards.get(match.id);
    if (gone) { gone.root.dataset.status = match.status; setTimeout(() => { gone.root.remove(); cards.delete(match.id); refreshEmpty(); }, 4000); }
    return;
  }
  const module = await boardModule(match.game);
  let card = cards.get(match.id);
  if (!card) {
    const root = document.createElement("a");
    root.className = "live-card";
    root.href = `/m/${match.id}`;
    root.dataset.match = match.id;
    const boardBox = document.createElement("div");
    boardBox.className = "live-board";
    const actions = document.createElement("div");
    actions.hidden = true;
    const info = document.createElement("div");
    info.className = "live-info";
    root.append(boardBox, info);
    grid.prepend(root);
    const board = module.mountBoard(boardBox, { submit() {}, t, actions, readOnly: true });
    card = { root, board, info };
    cards.set(match.id, card);
  }
  card.board.update(match);
  const watchers = document.createElement("div");
  watchers.className = "muted small live-watchers";
  const title = document.getElementById("game-titles-live")?.textContent;
  const titles = title ? JSON.parse(title) : {};
  watchers.textContent = `${titles[match.game] ?? match.game} · ${t("ply_n", { ply: match.ply })} · ${t("watching", { n: match.spectators ?? 0 })}`;
  watchers.dataset.spectators = String(match.spectators ?? 0);
  card.info.replaceChildren(playersLine(match, module), watchers);
  card.root.dataset.ply = String(match.ply);
  refreshEmpty();
}

function refreshEmpty() {
  empty.hidden = cards.size > 0;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/v1/live/ws`);
  socket.addEventListener("open", () => { grid.dataset.live = "yes"; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "match") upsert(message);
  });
  socket.addEventListener("close", () => { grid.dataset.live = "no"; setTimeout(connect, 2000); });
}

async function start() {
  connect();
  for (const match of (await api("GET", "/api/v1/live")).reverse()) await upsert(match);
  refreshEmpty();
}

start();
