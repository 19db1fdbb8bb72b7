// @ts-check
// The analysis board page (/analysis/<game>): try moves freely from a start or from any position
// of a game. Every position comes from the stateless POST /api/v1/analysis/board; the URL is the
// shareable position (?moves=a,b,c&ply=n, plus players, seed, options or match).
import { boardBody, stateRefused } from "./analysis-request.js";
import { api } from "./api.js";
import { byId, errorText, loadRenderer, t } from "./kit/index.js";
import { movePreviews } from "./preview.js";

/**
 * A position from POST /api/v1/analysis/board: a board payload for the seat to move, the line
 * that led to it, and the opaque `state` that continues it without replaying.
 * @typedef {Omit<import("./kit/boards.js").BoardPayload, "seats"> & {players: number, moves: string[],
 *   to_move: number, state?: string}} Position
 * @typedef {{match?: string, game?: string, players?: number, seed?: string, rules_version?: number,
 *   options?: object}} Start  where positions begin: a match, or a described start
 */

const $ = byId;
/** The form controls of the page, by id. @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
const root = $("analysis");
const query = new URLSearchParams(location.search);
const game = root.dataset.game;
const start = startFromQuery(query);
let line = (query.get("moves") || "").split(",").map((m) => m.trim()).filter(Boolean);
let index = Number.isInteger(Number(query.get("ply"))) && query.get("ply") !== null
  ? Math.min(Number(query.get("ply")), line.length) : line.length;
/** @type {import("./kit/boards.js").Board | null} */
let board = null;
/** @type {Position | null} */
let shown = null;
/** @type {Map<string, Promise<Position>>} */
const cache = new Map();
/** @type {import("./kit/boards.js").BoardPayload | null} the position drawn, as the board got it */
let drawn = null;
/** @type {import("./kit/boards.js").Renderer | null} */
let boardModule = null;

/** Where positions begin: a match, or a described start. Pure.
 * @param {URLSearchParams} params
 * @returns {Start} */
export function startFromQuery(params) {
  const match = params.get("match");
  if (match) return { match };
  /** @type {Start} */
  const described = { game };
  if (params.get("players")) described.players = Number(params.get("players"));
  // A seed is a decimal string: 128-bit seeds do not fit a JavaScript number.
  if (params.get("seed")) described.seed = params.get("seed") ?? undefined;
  if (params.get("rules")) described.rules_version = Number(params.get("rules"));
  if (params.get("options")) {
    try { described.options = JSON.parse(params.get("options") ?? ""); } catch { /* ignored: defaults */ }
  }
  return described;
}

/** @param {string} box @param {unknown} error */
function showError(box, error) {
  $(box).textContent = error ? errorText(error) : "";
  $(box).hidden = !error;
}

/** Ask the board API at `path` about `moves` (+ `move`), from the signed state of `known` when
 * there is one (the move list again when the server no longer takes it).
 * @param {string} path @param {string[]} moves @param {string | undefined} move @param {Position | undefined} known */
async function ask(path, moves, move, known) {
  const body = boardBody(start, moves, move, known);
  try {
    return await api("POST", path, body);
  } catch (error) {
    if (!body.state || !stateRefused(error)) throw error;
    return api("POST", path, boardBody(start, moves, move, undefined));
  }
}

/** @param {string[]} moves @param {string} [move] @returns {Promise<Position>} */
async function fetchPosition(moves, move) {
  const base = move ? cache.get(JSON.stringify([moves, null])) : undefined;
  const known = base ? await base.catch(() => undefined) : undefined;
  return ask("/api/v1/analysis/board", moves, move, known);
}

/** @param {string[]} moves @param {string} [move] @returns {Promise<Position>} */
async function positionAfter(moves, move) {
  const key = JSON.stringify([moves, move ?? null]);
  if (!cache.has(key)) {
    cache.set(key, fetchPosition(moves, move).catch((error) => {
      cache.delete(key);
      throw error;
    }));
  }
  return /** @type {Promise<Position>} */ (cache.get(key));
}

/** @param {number} players */
function seats(players) {
  return Array.from({ length: players }, (_, seat) => ({ seat, user: { name: t("Player {n}", { n: seat + 1 }) } }));
}

/** @param {Position} position */
function draw(position) {
  shown = position;
  drawn = { ...position, seats: seats(position.players), analysis: true };
  previews?.show(drawn);
  $("status-line").textContent = position.status === "finished" ? t("Game over")
    : t("Player {n} to move", { n: position.to_move + 1 });
  $("line-position").textContent = t("Move {ply} of {total}", { ply: index, total: line.length });
  $("hint-line").replaceChildren();
  renderLine();
  updateLink();
}

function renderLine() {
  const list = $("line-moves");
  list.replaceChildren();
  line.forEach((move, i) => {
    const item = document.createElement("li");
    item.dataset.ply = String(i + 1);
    item.innerHTML = `<span class="ply">${i + 1}.</span><span class="move"></span>`;
    /** @type {Element} */ (item.querySelector(".move")).textContent = move;
    if (i + 1 === index) item.className = "last";
    item.addEventListener("click", () => go(i + 1));
    list.append(item);
  });
}

function updateLink() {
  const url = new URL(location.href);
  url.search = "";
  for (const [name, value] of Object.entries(start)) {
    if (name === "game") continue;
    url.searchParams.set(name, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  if (line.length) url.searchParams.set("moves", line.join(","));
  if (index !== line.length) url.searchParams.set("ply", String(index));
  history.replaceState(null, "", url);
  field("share-link").value = url.href;
}

/** @param {number} ply */
async function go(ply) {
  index = Math.max(0, Math.min(line.length, ply));
  showError("move-error", null);
  try {
    const position = await positionAfter(line.slice(0, index));
    if (position.ply !== index) { // the rules played a forced move: it joins the line
      line = [...position.moves, ...line.slice(index)];
      index = position.ply;
    }
    draw(position);
  } catch (error) {
    showError("move-error", error);
  }
}

/** @param {string} move */
async function submit(move) {
  showError("move-error", null);
  try {
    const next = await positionAfter(line.slice(0, index), move);
    const same = next.moves.every((m, i) => line[i] === m);
    line = same ? line : next.moves; // a new move cuts the rest of the line
    index = next.ply;
    cache.set(JSON.stringify([next.moves, null]), Promise.resolve(next));
    draw(next);
  } catch (error) {
    showError("move-error", error);
  }
}

async function hint() {
  const box = $("hint-line");
  box.textContent = t("Thinking…");
  try {
    const here = shown?.ply === index ? shown : undefined;
    const body = here?.state ? { ...(start.game ? { game: start.game } : {}), state: here.state }
      : { ...start, moves: line.slice(0, index) };
    const { move } = await api("POST", "/api/v1/analysis/hint", body);
    box.textContent = t("A good move: {move}", { move });
    const play = document.createElement("button");
    play.type = "button";
    play.textContent = t("Play it");
    play.addEventListener("click", () => submit(move));
    box.append(" ", play);
  } catch (error) {
    box.textContent = errorText(error);
  }
}

async function importRecord() {
  showError("import-error", null);
  try {
    const found = await api("POST", "/api/v1/analysis/import", { text: field("import-text").value });
    const url = new URL(`/analysis/${found.game}`, location.href);
    url.searchParams.set("players", String(found.players));
    url.searchParams.set("seed", found.seed);
    if (found.rules_version != null) url.searchParams.set("rules", String(found.rules_version));
    if (Object.keys(found.options).length) url.searchParams.set("options", JSON.stringify(found.options));
    if (found.moves.length) url.searchParams.set("moves", found.moves.join(","));
    location.href = url.href;
  } catch (error) {
    showError("import-error", error);
  }
}

function wire() {
  /** @type {Record<string, () => number>} */
  const steps = { start: () => 0, previous: () => index - 1, next: () => index + 1, end: () => line.length };
  for (const button of /** @type {NodeListOf<HTMLElement>} */ ($("line-bar").querySelectorAll("[data-step]"))) {
    button.addEventListener("click", () => go(steps[button.dataset.step ?? ""]()));
  }
  document.addEventListener("keydown", (event) => {
    if (/** @type {Element} */ (event.target).closest("input, textarea, select")) return;
    /** @type {Record<string, string>} */
    const keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "start", End: "end" };
    if (keys[event.key]) { event.preventDefault(); go(steps[keys[event.key]]()); }
  });
  $("hint-button").addEventListener("click", hint);
  $("import-button").addEventListener("click", importRecord);
  $("game-select").addEventListener("change", () => { location.href = `/analysis/${field("game-select").value}`; });
  $("players-select")?.addEventListener("change", () => {
    location.href = `/analysis/${game}?players=${field("players-select").value}`;
  });
  if (start.players && $("players-select")) field("players-select").value = String(start.players);
  if (start.match) $("setup").hidden = true;
  $("copy-link").addEventListener("click", async () => {
    field("share-link").select();
    try { await navigator.clipboard.writeText(field("share-link").value); } catch { document.execCommand?.("copy"); }
    $("copy-link").textContent = t("Copied");
  });
}

/** The preview of `move` in the position shown (its changes worded by the server). @param {string} move */
function fetchPreview(move) {
  return ask("/api/v1/analysis/board/preview", line.slice(0, index), move, shown?.ply === index ? shown : undefined);
}

// A move waits for its confirmation when the person's "Confirm moves" setting asks for it (the
// board draws its preview meanwhile: static/js/preview.js).
const previews = root ? movePreviews({
  boardRoot: $("board"), actions: $("board-actions"), panel: $("move-preview"), settingHolder: root,
  board: () => board,
  live: () => (drawn?.status === "active" ? drawn : null),
  tapAttributes: () => boardModule?.tapAttributes ?? [],
  fetch: fetchPreview,
  commit: submit,
  showError: (message) => { $("move-error").textContent = message; $("move-error").hidden = !message; },
  describe: (move, payload) => boardModule?.describeMove?.(move, payload) ?? "",
}) : null;

async function main() {
  const module = await loadRenderer(root.dataset.board);
  boardModule = module;
  board = module.mountBoard($("board"), { submit: previews?.submit ?? submit, t, actions: $("board-actions"), readOnly: false });
  wire();
  await go(index);
}

if (root) main();
