// @ts-check
// The computer analysis on the match page: request it once a game is over, follow its
// progress live (`analysis` events on the match socket, relayed by match.js as "match:message"),
// then the value graph (click: jump to that ply), the marked moves with their signs in the move
// list, and the preferred move drawn on the board. In a casual game against built-in bots, a
// "Show a good move" button. Talks to match.js only through document events:
//   listens "replay:ply" {ply}; sends "replay:show" {ply} and "replay:draw" {view, ply}.
import { api } from "./api.js";
import { drawGraph, MARK_COUNTS, MARK_SIGNS, MARK_WORDS } from "./analysis-graph.js";
import { errorText, isMyTurn, playerName, t } from "./kit/index.js";

/**
 * The analysis of a match (GET/POST /api/v1/matches/{id}/analysis, and the socket's progress).
 * @typedef {{status: string, progress?: number, total?: number,
 *   result?: import("./analysis-graph.js").AnalysisResult}} Analysis
 * @typedef {import("./kit/boards.js").BoardPayload & {id: string, game: string, sealed?: boolean,
 *   rated?: boolean, tournament?: unknown}} ReplayMatch
 */

// Absent on pages without the panel: nothing below runs then (see the end of the file).
const panel = /** @type {HTMLElement} */ (document.getElementById("analysis-panel"));
const root = document.getElementById("match");
/** @type {ReplayMatch} */
let match = JSON.parse(document.getElementById("initial-match")?.textContent || "null");
/** @type {Analysis | null} the GET payload */
let analysis = null;
/** @type {ReturnType<typeof drawGraph> | null} */
let graph = null;
/** @type {number | null} the replay's shown ply */
let ply = null;
let fetching = false;
/** @type {string[] | null} the match's moves, for "Analyse from here" (from match.js: "replay:moves") */
let played = null;
/** @type {ReturnType<typeof setInterval> | null} */
let polling = null;
const POLL_MS = 3000; // in case the socket is away: progress by GET meanwhile

/** An element with these properties (not attributes, unlike kit/dom.js el()).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Partial<HTMLElementTagNameMap[K]>} [props]
 * @param {string | null} [text]
 * @returns {HTMLElementTagNameMap[K]} */
const el = (tag, props = {}, text = null) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  if (text !== null) node.textContent = text;
  return node;
};

function url() { return `/api/v1/matches/${match.id}/analysis`; }

async function load() {
  if (fetching) return;
  fetching = true;
  try {
    analysis = await api("GET", url());
  } catch (error) {
    analysis = /** @type {{code?: string}} */ (error).code === "no_analysis" ? null : analysis;
  } finally {
    fetching = false;
  }
  render();
}

async function request() {
  try {
    analysis = await api("POST", url());
  } catch (error) {
    panel.querySelector(".analysis-error")?.replaceChildren(errorText(error));
    return;
  }
  render();
}

/** The move made at ply n (1 = first), from the analysis.
 * @param {number} n */
const moveAt = (n) => analysis?.result?.moves?.[n - 1] ?? null;

/** The graph and its legend draw each seat in its game colour, as match.js shows it beside the
 * seat (``data-colour``): CSS custom properties --seat-0… on the panel. */
function paintSeatColours() {
  for (const item of document.querySelectorAll("#seats li[data-seat][data-colour]")) {
    const seat = /** @type {HTMLElement} */ (item).dataset;
    panel.style.setProperty(`--seat-${seat.seat}`, seat.colour ?? "");
  }
}

function render() {
  paintSeatColours();
  if (match.status !== "finished") return renderHint();
  panel.hidden = false;
  panel.replaceChildren(el("h2", {}, t("Computer analysis")));
  if (match.sealed) { // a duplicate round's table: its deal is still played at the others
    panel.append(el("p", { className: "muted", id: "analysis-sealed" },
      t("The analysis opens when the round has ended at every table.")));
    return;
  }
  if (!analysis) {
    const actions = el("div", { className: "analysis-actions" });
    const button = el("button", { type: "button", id: "analysis-request" }, t("Request computer analysis"));
    button.addEventListener("click", request);
    actions.append(button, el("span", { className: "analysis-error move-error" }),
      el("span", { id: "analyse-link-box" }));
    panel.append(actions);
    showAt(ply ?? played?.length ?? 0);
    return;
  }
  if (analysis.status !== "done") {
    if (analysis.status === "failed") clearInterval(polling ?? undefined);
    else polling ??= setInterval(() => { if (root?.dataset.live !== "yes") load(); }, POLL_MS);
    const text = analysis.status === "failed" ? t("The analysis failed.")
      : t("Analysing… {done} of {total} positions", { done: analysis.progress, total: analysis.total });
    const bar = el("progress", { className: "analysis-progress", max: analysis.total, value: analysis.progress });
    panel.append(el("p", { className: "analysis-status", id: "analysis-status" }, text), bar);
    return;
  }
  clearInterval(polling ?? undefined);
  polling = null;
  const result = /** @type {import("./analysis-graph.js").AnalysisResult} */ (analysis.result);
  const box = el("div", { className: "analysis-graph", id: "analysis-graph" });
  panel.append(box);
  graph = drawGraph(box, result, {
    onPly: (n) => document.dispatchEvent(new CustomEvent("replay:show", { detail: { ply: n } })),
    seatLabel: (seat) => playerName(match, seat, t("Player {n}", { n: seat + 1 })),
  });
  const legend = el("p", { className: "analysis-legend muted" });
  result.counts.forEach((counts, seat) => {
    const item = el("span");
    item.append(el("span", { className: `swatch seat-${seat}` }));
    const words = Object.entries(counts).filter(([, n]) => n).map(([mark, n]) => MARK_COUNTS[mark]?.(n) ?? `${n} ${t(MARK_WORDS[mark])}`);
    item.append(`${playerName(match, seat, t("Player {n}", { n: seat + 1 }))}: ${words.join(", ") || t("no marked move")}`);
    legend.append(item);
  });
  panel.append(legend, el("p", { className: "preferred-note", id: "preferred-note" }));
  const list = el("ol", { className: "marked-moves", id: "marked-moves" });
  for (const move of result.moves.filter((m) => m.mark)) {
    const item = el("li");
    const mark = move.mark ?? "";
    const button = el("button", { type: "button", className: `mark-${mark}` },
      `${move.ply}. ${move.move} ${MARK_SIGNS[mark]} ${t(MARK_WORDS[mark])}`);
    button.dataset.ply = String(move.ply);
    button.addEventListener("click", () => document.dispatchEvent(new CustomEvent("replay:show", { detail: { ply: move.ply } })));
    item.append(button);
    list.append(item);
  }
  panel.append(list);
  showAt(ply ?? result.moves.length);
  signMoveList();
}

/** @param {number} n */
function showAt(n) {
  ply = n;
  graph?.select(n);
  const note = document.getElementById("preferred-note");
  if (!note) { showLink(n); return; }
  note.replaceChildren();
  const move = moveAt(n);
  if (move?.mark && move.best) {
    note.className = `preferred-note mark-${move.mark}`;
    note.append(t("{move} was a {mark}: the computer preferred {best}.",
      { move: move.move, mark: t(MARK_WORDS[move.mark]).toLowerCase(), best: move.best }), " ");
    if (move.best_view) {
      const show = el("button", { type: "button", id: "show-preferred" }, t("Show the preferred move"));
      show.addEventListener("click", () => document.dispatchEvent(new CustomEvent("replay:draw",
        { detail: { view: move.best_view, ply: n, last_move: { ply: n, seat: move.seat, move: move.best } } })));
      note.append(show);
    }
  }
  note.append(" ", el("span", { id: "analyse-link-box" }));
  showLink(n);
}

/** "Analyse from here": the analysis board at the shown position of this game. */
/** @param {number} n */
function showLink(n) {
  const box = document.getElementById("analyse-link-box");
  if (!box || !played) return;
  const href = `/analysis/${match.game}?match=${encodeURIComponent(match.id)}`
    + (n > 0 ? `&moves=${encodeURIComponent(played.slice(0, n).join(","))}` : "");
  box.replaceChildren(el("a", { href, id: "analyse-here" }, t("Analyse from here")));
}

/** Signs (?!, ?, ??) after the marked moves of match.js's move list, kept across its redraws. */
function signMoveList() {
  const list = document.getElementById("move-list");
  if (!list || !analysis?.result) return;
  for (const item of /** @type {NodeListOf<HTMLLIElement>} */ (list.querySelectorAll("li[data-ply]"))) {
    const move = moveAt(Number(item.dataset.ply));
    if (!move?.mark || item.querySelector(".move-sign")) continue;
    item.append(el("span", { className: `move-sign mark-${move.mark}`, title: t(MARK_WORDS[move.mark]) }, MARK_SIGNS[move.mark]));
  }
}

// -- hints in a casual game against built-in bots --------------------------------------------------

function hintAllowed() {
  return match.status === "active" && !match.rated && !match.tournament && match.your_seat !== null
    && match.seats.every((s) => s.seat === match.your_seat || s.user?.kind === "bot");
}

/** The board cells a move is played with, from the view's clicks (first click -> the move, or
 * -> {second click -> move}): the squares a hint highlights. Pure.
 * @param {Record<string, string | Record<string, string>> | null | undefined} clicks
 * @param {string} move
 * @returns {string[]} */
export function hintCells(clicks, move) {
  for (const [first, then] of Object.entries(clicks ?? {})) {
    if (then === move) return [first];
    if (then && typeof then === "object") {
      for (const [second, played] of Object.entries(then)) if (played === move) return [first, second];
    }
  }
  return [];
}

/** @type {string[]} the cells of the hint on show (kept through the board's redraws) */
let hinted = [];
const board = document.getElementById("board");
const markHint = () => {
  for (const node of board?.querySelectorAll(".hint-cell") ?? []) {
    if (!hinted.includes(/** @type {HTMLElement} */ (node).dataset.cell ?? "")) node.classList.remove("hint-cell");
  }
  for (const cell of hinted) {
    for (const node of board?.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`) ?? []) {
      if (!node.classList.contains("hint-cell")) node.classList.add("hint-cell");
    }
  }
};
if (board) new MutationObserver(markHint).observe(board, { childList: true, subtree: true });

/** @param {string[]} cells */
function showHint(cells) {
  hinted = cells;
  markHint();
}

function renderHint() {
  if (!hintAllowed()) { panel.hidden = true; return; }
  panel.hidden = false;
  const existing = document.getElementById("hint-button");
  if (existing) { /** @type {HTMLButtonElement} */ (existing).disabled = !isMyTurn(match); return; }
  const actions = el("div", { className: "analysis-actions" });
  const button = el("button", { type: "button", id: "hint-button" }, t("Show a good move"));
  const line = el("span", { className: "hint-line", id: "hint-line" });
  button.addEventListener("click", async () => {
    line.textContent = t("Thinking…");
    const askedAt = match.ply;
    try {
      const { move } = await api("POST", `/api/v1/matches/${match.id}/hint`);
      if (match.ply !== askedAt) { line.replaceChildren(); return; } // the game moved on meanwhile
      line.textContent = t("A good move: {move}", { move });
      const play = el("button", { type: "button", id: "hint-play", className: "primary" }, t("Play it"));
      play.addEventListener("click", () => {
        showHint([]);
        line.replaceChildren();
        document.dispatchEvent(new CustomEvent("match:play", { detail: { move } }));
      });
      line.append(" ", play);
      showHint(hintCells(/** @type {any} */ (match.view)?.clicks, move));
    } catch (error) {
      line.textContent = errorText(error);
    }
  });
  button.disabled = !isMyTurn(match);
  actions.append(button, line);
  panel.replaceChildren(actions);
}

/** @param {import("./kit/socket.js").SocketMessage} message */
function received(message) {
  if (message.type === "analysis" && message.match_id === match.id) {
    if (message.status === "done" || message.status === "failed") { load(); return; }
    analysis = /** @type {Analysis} */ ({ ...(analysis ?? {}), ...message });
    if (!document.getElementById("analysis-graph")) render();
  } else if (message.type === "state") {
    const wasOver = match.status === "finished";
    const wasSealed = match.sealed;
    const { type, ...next } = message;
    match = /** @type {ReplayMatch} */ (next);
    // a game that has just ended (or a table just unsealed) has no analysis yet: its panel
    // offers one, nothing is fetched
    if ((!wasOver || wasSealed !== match.sealed) && match.status === "finished") render();
    else if (match.status !== "finished") {
      document.getElementById("hint-line")?.replaceChildren();
      showHint([]);
      renderHint();
    }
  }
}

if (panel && match) {
  document.addEventListener("match:message", (event) => received(/** @type {CustomEvent} */ (event).detail));
  document.addEventListener("match:seats", paintSeatColours);
  document.addEventListener("replay:ply", (event) => showAt(/** @type {CustomEvent} */ (event).detail.ply));
  document.addEventListener("replay:moves", (event) => { // match.js fetched them once
    const moves = /** @type {string[]} */ (/** @type {CustomEvent} */ (event).detail.moves);
    played = moves;
    showLink(ply ?? moves.length);
  });
  const list = document.getElementById("move-list");
  if (list) new MutationObserver(signMoveList).observe(list, { childList: true });
  const analysed = panel.dataset.analysed === "yes"; // else a GET would only say "none yet" (404)
  if (match.status === "finished" && !match.sealed && analysed) load(); else render();
  root?.setAttribute("data-analysis", "ready");
}
