// Stairs board: 6×6 squares, each stack drawn as a pile of discs with its height as a numeral.
// Click a highlighted piece (it may move now), then one of the marked destinations.
import { svg } from "../api.js";

const SIZE = 6;
const CELL = 64;
const MARGIN = 18;
const FILES = "abcdef";
const PIECE = { L: "var(--light-piece)", D: "var(--dark-piece)" };
const PIECE_EDGE = { L: "#9a8f7a", D: "#000" };

export function seatInfo(match, seat) {
  const colour = match.view.colours?.[seat] ?? (seat === 0 ? "light" : "dark");
  return { label: colour, colour: colour === "light" ? "#f4eee1" : "#3a3330" };
}

export function mountBoard(root, ctx) {
  const width = SIZE * CELL + MARGIN * 2;
  const canvas = svg("svg", { viewBox: `0 0 ${width} ${width}`, role: "img", "aria-label": "Stairs board" }, root);
  let selected = null;
  let match = null;

  function position(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square.slice(1)) - 1;
    const flip = match.view.your_colour === "dark";
    const col = flip ? SIZE - 1 - file : file;
    const row = flip ? rank : SIZE - 1 - rank;
    return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
  }

  function myTurn() {
    return match.status === "active" && match.your_seat !== null && match.to_move === match.your_seat;
  }

  function drawStack(group, stack, x, y) {
    const height = stack.length;
    if (height === 0) return;
    const step = Math.min(6, 30 / height);
    const base = y + CELL * 0.68;
    stack.forEach((piece, level) => {
      const cy = base - level * step;
      svg("ellipse", { cx: x + CELL / 2, cy, rx: CELL * 0.34, ry: CELL * 0.16,
        fill: PIECE[piece], stroke: PIECE_EDGE[piece], "stroke-width": 1.2 }, group);
    });
    const top = stack[height - 1];
    const label = svg("text", { x: x + CELL / 2, y: base - (height - 1) * step + 5,
      "text-anchor": "middle", class: "height-label", "font-size": 15,
      fill: top === "L" ? "#3a3330" : "#f4eee1" }, group);
    label.textContent = String(height);
  }

  function draw() {
    canvas.replaceChildren();
    const view = match.view;
    const movable = myTurn() ? view.movable || {} : {};
    const targets = selected ? movable[selected] || [] : [];
    const last = view.last_move && view.last_move.includes("-") ? view.last_move.split("-") : [];
    view.squares.forEach((square, index) => {
      const { x, y } = position(square);
      const file = FILES.indexOf(square[0]);
      const rank = Number(square.slice(1)) - 1;
      const group = svg("g", { "data-square": square, "data-height": view.heights[index] }, canvas);
      svg("rect", { x, y, width: CELL, height: CELL, class: (file + rank) % 2 === 0 ? "sq-dark" : "sq-light" }, group);
      if (last.includes(square)) svg("rect", { x, y, width: CELL, height: CELL, class: "last-move" }, group);
      drawStack(group, view.board[index], x, y);
      if (square in movable) {
        svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8,
          class: square === selected ? "selected-ring" : "movable-ring" }, group);
        group.classList.add("clickable", "movable");
      }
      if (targets.includes(square)) {
        svg("circle", { cx: x + CELL / 2, cy: y + CELL * 0.2, r: 7, class: "target-dot" }, group);
        group.classList.add("clickable", "target");
      }
      group.addEventListener("click", () => onSquare(square, movable, targets));
    });
    for (let i = 0; i < SIZE; i++) {
      const fileSquare = position(`${FILES[i]}1`);
      const rankSquare = position(`a${i + 1}`);
      svg("text", { x: fileSquare.x + CELL / 2, y: width - 4, "text-anchor": "middle", class: "coord" }, canvas).textContent = FILES[i];
      svg("text", { x: 5, y: rankSquare.y + CELL / 2 + 3, class: "coord" }, canvas).textContent = String(i + 1);
    }
  }

  function onSquare(square, movable, targets) {
    if (selected && targets.includes(square)) {
      const move = `${selected}-${square}`;
      selected = null;
      ctx.submit(move);
      return;
    }
    selected = square in movable && selected !== square ? square : null;
    draw();
  }

  function drawActions() {
    ctx.actions.replaceChildren();
    if (!myTurn()) return;
    for (const special of ["pass", "swap"]) {
      if (!match.legal_moves.includes(special)) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.dataset.move = special;
      button.textContent = ctx.t(special);
      button.addEventListener("click", () => ctx.submit(special));
      ctx.actions.append(button);
    }
  }

  return {
    update(next) {
      if (!match || next.ply !== match.ply) selected = null;
      match = next;
      draw();
      drawActions();
    },
  };
}
