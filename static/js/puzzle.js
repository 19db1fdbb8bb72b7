// @ts-check
// The puzzle page (/puzzle/<id>): solve by playing on the board. The page holds the position (the
// game, its options and the moves from the start), never the solution: each move goes to
// POST /api/v1/puzzles/{id}/attempts, which answers correct, incorrect or "your move" with the
// plies the server plays in reply; the solution is fetched only when asked for or when finished.
import { api } from "./api.js";
import { byId, errorText, loadRenderer, t } from "./kit/index.js";

/** @typedef {{id: number, game: string, options: object, players: number, rules_version: number,
 *   moves: string[], seat: number, goal: string}} PuzzleData
 * @typedef {{move?: string, forced?: boolean, next?: Tree, replies?: Record<string, Tree>}} Tree */

const $ = byId;
const root = $("puzzle");
const puzzle = /** @type {PuzzleData} */ (JSON.parse($("puzzle-data").textContent ?? "{}"));
/** @type {string[]} the plies played from the puzzle's position */
let line = [];
let finished = false;
/** @type {import("./kit/boards.js").Board | null} */
let board = null;
/** The game's renderer module: its seatInfo names a seat by the colour the board draws it in.
 * @type {{seatInfo?: (match: any, seat: number) => {label: string}} | null} */
let renderer = null;
let busy = false;

/** A line's plies as the side-panel list shows them: the solver's own and the answers. Pure.
 * @param {string[]} plies @param {number} seat @param {number[]} seats the seat of each ply */
export function lineItems(plies, seat, seats) {
  return plies.map((move, i) => ({ move, mine: seats[i] === seat }));
}

/** The solution tree as nested list items (text and children). Pure.
 * @param {Tree} tree @returns {{text: string, mine: boolean, children: any[]}[]} */
export function solutionItems(tree) {
  if (!tree || (!tree.move && !tree.replies)) return [];
  if (tree.move) {
    return [{ text: tree.move, mine: true, children: [] }, ...solutionItems(tree.next ?? {})];
  }
  return Object.entries(tree.replies ?? {}).map(([move, node]) => (
    { text: move, mine: false, children: solutionItems(node) }));
}

/** @type {number[]} */
let seats = [];

async function position() {
  return api("POST", "/api/v1/analysis/board", {
    game: puzzle.game, players: puzzle.players, options: puzzle.options,
    rules_version: puzzle.rules_version, moves: [...puzzle.moves, ...line],
  });
}

/** @param {string} text @param {string} [kind] */
function verdict(text, kind = "") {
  const box = $("puzzle-verdict");
  box.textContent = text;
  box.className = `puzzle-verdict ${kind}`;
}

async function draw() {
  const here = await position();
  const mine = !finished && here.to_move === puzzle.seat && here.status === "active";
  board?.update({
    ...here,
    legal_moves: mine ? here.legal_moves : [],
    seats: Array.from({ length: here.players }, (_, seat) => ({ seat, user: { name: t("Player {n}", { n: seat + 1 }) } })),
    your_seat: puzzle.seat, analysis: mine,
  });
  const colour = renderer?.seatInfo?.(here, puzzle.seat)?.label;
  $("status-line").textContent = finished ? t("Puzzle over") : toMove(colour);
  if (!line.length && colour) nameTheTask(colour);
  renderLine();
}

/** Who is to move, by the colour the board shows (a swap may have changed it), else by number.
 * @param {string | undefined} colour */
function toMove(colour) {
  return colour ? t("{colour} to move", { colour }) : t("Player {n} to move", { n: puzzle.seat + 1 });
}

/** The task names the solver's colour too, once the board has drawn the position.
 * @param {string} colour */
function nameTheTask(colour) {
  $("puzzle-task").textContent = puzzle.goal === "win"
    ? t("Find the forced win for {colour}.", { colour })
    : t("Find the move that gains the most squares for {colour}, whatever the answer.", { colour });
}

function renderLine() {
  const list = $("line-moves");
  list.replaceChildren();
  lineItems(line, puzzle.seat, seats).forEach((item, i) => {
    const entry = document.createElement("li");
    entry.innerHTML = `<span class="ply">${puzzle.moves.length + i + 1}.</span><span class="move"></span>`;
    /** @type {Element} */ (entry.querySelector(".move")).textContent = item.move;
    if (item.mine) entry.classList.add("mine");
    list.append(entry);
  });
}

/** @param {{before: number, after: number, change: number} | null} rating */
function ratingText(rating) {
  if (!rating) return "";
  const sign = rating.change >= 0 ? "+" : "";
  return " " + t("Your puzzle rating: {after} ({change})", { after: rating.after.toFixed(1), change: `${sign}${rating.change.toFixed(1)}` });
}

/** @param {string} move */
async function submit(move) {
  if (busy || finished) return;
  busy = true;
  $("move-error").hidden = true;
  try {
    const attempt = [...line, move];
    const answer = await api("POST", `/api/v1/puzzles/${puzzle.id}/attempts`, { moves: attempt });
    if (answer.status === "incorrect") {
      verdict(t("That is not it. Retry, or ask for a hint.") + ratingText(answer.rating), "wrong");
      if (answer.rating) $("my-rating").textContent = answer.rating.after.toFixed(1);
      return;
    }
    seats.push(puzzle.seat);
    line = [...attempt, ...answer.reply];
    answer.reply.forEach(() => seats.push(-1));
    if (answer.status === "correct") {
      finished = true;
      verdict(t("Solved!") + ratingText(answer.rating), "right");
      if (answer.rating && $("my-rating")) $("my-rating").textContent = answer.rating.after.toFixed(1);
      await showSolution();
    } else {
      verdict(t("Good move. Keep going."), "right");
    }
    await draw();
  } catch (error) {
    $("move-error").textContent = errorText(error);
    $("move-error").hidden = false;
  } finally {
    busy = false;
  }
}

async function retry() {
  line = [];
  seats = [];
  finished = false;
  verdict("");
  board?.mark?.();
  await draw();
}

async function hint() {
  try {
    const { square } = await api("POST", `/api/v1/puzzles/${puzzle.id}/hint`, { moves: line });
    board?.mark?.([square], "hint");
    verdict(t("Look at {square}.", { square }));
  } catch (error) {
    verdict(errorText(error), "wrong");
  }
}

/** @param {HTMLElement} list @param {{text: string, mine: boolean, children: any[]}[]} items */
function fillTree(list, items) {
  for (const item of items) {
    const entry = document.createElement("li");
    entry.textContent = item.text;
    entry.className = item.mine ? "mine" : "reply";
    if (item.children.length) {
      const nested = document.createElement("ul");
      fillTree(nested, item.children);
      entry.append(nested);
    }
    list.append(entry);
  }
}

async function showSolution() {
  if (!finished) {
    await api("POST", `/api/v1/puzzles/${puzzle.id}/attempts`, { moves: line, gave_up: true }).catch(() => null);
    finished = true;
    verdict(t("The solution is below."));
    await draw();
  }
  const full = await api("GET", `/api/v1/puzzles/${puzzle.id}`);
  const list = $("solution-tree");
  list.replaceChildren();
  fillTree(list, solutionItems(full.solution));
  $("solution").hidden = false;
}

async function main() {
  const module = await loadRenderer(root.dataset.board);
  renderer = module;
  board = module.mountBoard($("board"), { submit, t, actions: $("board-actions"), readOnly: false });
  $("retry-button").addEventListener("click", retry);
  $("hint-button").addEventListener("click", hint);
  $("solution-button").addEventListener("click", () => showSolution().catch((error) => verdict(errorText(error), "wrong")));
  await draw();
}

if (root) main();
