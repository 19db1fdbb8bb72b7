// Sight board: a 5×5 Alquerque board of points; stacks drawn as piles of discs with a numeral.
// Placement phase: tap any empty point. Move phase: pick one of the highlighted tallest stacks,
// then an adjacent empty point. Before a move is committed the board previews which of your
// pieces it would grow (view.growth) and draws the lines of sight to them: on hover with a mouse,
// or on a first tap on touch screens (tap again, or press the confirm button, to play it).
import { svg } from "../api.js";

const SIZE = 5;
const FILES = "abcde";
const GAP = 84; // distance between neighbouring points
const MARGIN = 58;
const WIDTH = GAP * (SIZE - 1) + MARGIN * 2;
const PIECE = { light: "var(--light-piece)", dark: "var(--dark-piece)" };
const PIECE_EDGE = { light: "#9a8f7a", dark: "#000" };
const PIECE_INK = { light: "#3a3330", dark: "#f4eee1" };

const WORDS = {
  en: {
    light: "Light", dark: "Dark",
    place: "Place a piece on any empty point.",
    move: "Move the top piece of a highlighted stack (height {h}) to a neighbouring empty point.",
    target: "Now choose an empty point next to {p}.",
    grows: "{move}: {n} of your pieces grow ({points}).",
    grows_one: "{move}: 1 of your pieces grows ({points}).",
    grows_none: "{move}: none of your pieces would grow.",
    confirm: "Play {move}",
    cancel: "Cancel",
    tap_again: "Tap again or press the button to play it.",
    board: "Sight board",
  },
  ja: {
    light: "白", dark: "黒",
    place: "空いている点をひとつ選んで駒を置きます。",
    move: "光っている山（高さ{h}）の一番上の駒を、線でつながった隣の空き点へ動かします。",
    target: "{p} の隣の空き点を選んでください。",
    grows: "{move}：あなたの駒が{n}つ伸びます（{points}）。",
    grows_one: "{move}：あなたの駒が1つ伸びます（{points}）。",
    grows_none: "{move}：伸びる駒はありません。",
    confirm: "{move} で決定",
    cancel: "やめる",
    tap_again: "もう一度タップするか、ボタンで決定します。",
    board: "サイトの盤",
  },
};

function words() {
  return WORDS[document.documentElement.lang] ?? WORDS.en;
}

function say(key, values = {}) {
  let text = words()[key] ?? WORDS.en[key] ?? key;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

export function seatInfo(match, seat) {
  const colour = match.view?.colours?.[seat] ?? (seat === 0 ? "light" : "dark");
  return { label: say(colour), colour: colour === "light" ? "#f4eee1" : "#3a3330" };
}

export function mountBoard(root, ctx) {
  const canvas = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${WIDTH}`, role: "img", "aria-label": say("board"), class: "sight-board",
  }, root);
  const layers = {};
  for (const name of ["base", "marks", "sightLines", "pieces", "badges", "hits"]) {
    layers[name] = svg("g", { class: `sight-${name}` }, canvas);
  }
  layers.sightLines.setAttribute("pointer-events", "none");
  layers.pieces.setAttribute("pointer-events", "none");
  layers.badges.setAttribute("pointer-events", "none");

  let match = null;
  let selected = null; // the source stack picked in the move phase
  let hovered = null; // move previewed by the mouse (or keyboard focus)
  let pending = null; // move previewed by a first tap, waiting for confirmation
  let pointerType = "mouse";
  canvas.addEventListener("pointerdown", (event) => { pointerType = event.pointerType || "mouse"; });

  const flipped = () => match.your_seat === 1;

  function at(point) {
    const file = FILES.indexOf(point[0]);
    const rank = Number(point.slice(1)) - 1;
    const col = flipped() ? SIZE - 1 - file : file;
    const row = flipped() ? rank : SIZE - 1 - rank;
    return { x: MARGIN + col * GAP, y: MARGIN + row * GAP };
  }

  function myTurn() {
    return match.status === "active" && match.your_seat !== null && match.to_move === match.your_seat;
  }

  function myColour() {
    return match.view.colours?.[match.your_seat] ?? "light";
  }

  // --- what may be clicked now ------------------------------------------------------------------

  function options() {
    const view = match.view;
    const legal = myTurn() ? match.legal_moves || [] : [];
    if (legal.length === 0) return { phase: null, sources: {}, targets: {} };
    if (view.phase === "place") {
      const targets = {};
      for (const move of legal) targets[move] = move;
      return { phase: "place", sources: {}, targets };
    }
    const sources = {};
    for (const [source, list] of Object.entries(view.sources || {})) {
      sources[source] = list.filter((target) => legal.includes(`${source}-${target}`));
    }
    const targets = {};
    if (selected && sources[selected]) {
      for (const target of sources[selected]) targets[target] = `${selected}-${target}`;
    }
    return { phase: "move", sources, targets };
  }

  // --- drawing ----------------------------------------------------------------------------------

  function drawBase() {
    const base = layers.base;
    base.replaceChildren();
    const view = match.view;
    svg("rect", { x: 6, y: 6, width: WIDTH - 12, height: WIDTH - 12, rx: 18, class: "sight-wood" }, base);
    const inner = MARGIN - 20;
    svg("rect", { x: inner, y: inner, width: WIDTH - inner * 2, height: WIDTH - inner * 2, rx: 10,
      class: "sight-field" }, base);
    for (const [p, q] of view.edges) {
      const a = at(p);
      const b = at(q);
      const diagonal = p[0] !== q[0] && p[1] !== q[1];
      svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: diagonal ? "sight-line diagonal" : "sight-line" }, base);
    }
    for (const point of view.points) {
      const { x, y } = at(point);
      svg("circle", { cx: x, cy: y, r: 4, class: "sight-dot" }, base);
    }
    for (let i = 0; i < SIZE; i++) {
      const file = at(`${FILES[i]}1`);
      const rank = at(`a${i + 1}`);
      svg("text", { x: file.x, y: WIDTH - 15, "text-anchor": "middle", class: "coord sight-coord" }, base)
        .textContent = FILES[i];
      svg("text", { x: 22, y: rank.y + 5, "text-anchor": "middle", class: "coord sight-coord" }, base)
        .textContent = String(i + 1);
    }
  }

  function drawStack(group, stack, x, y, extra = {}) {
    const height = stack.height;
    const step = Math.min(6, 32 / height);
    const base = y + 6 + Math.min(height - 1, 5) * 2;
    for (let level = 0; level < height; level++) {
      svg("ellipse", { cx: x, cy: base - level * step, rx: 25, ry: 12, fill: PIECE[stack.colour],
        stroke: PIECE_EDGE[stack.colour], "stroke-width": 1.3, ...extra }, group);
    }
    const topY = base - (height - 1) * step;
    const label = svg("text", { x, y: topY + 5, "text-anchor": "middle", class: "height-label",
      "font-size": 16, fill: PIECE_INK[stack.colour], ...extra }, group);
    label.textContent = String(height);
    return topY;
  }

  function badge(parent, point, topY, text, kind) {
    const { x } = at(point);
    const g = svg("g", { class: `sight-badge ${kind}` }, parent);
    svg("circle", { cx: x + 22, cy: topY - 12, r: 11 }, g);
    svg("text", { x: x + 22, y: topY - 8, "text-anchor": "middle" }, g).textContent = text;
  }

  const tops = {};

  function draw() {
    const view = match.view;
    const { phase, sources, targets } = options();
    drawBase();
    const marks = layers.marks;
    const pieces = layers.pieces;
    const hits = layers.hits;
    marks.replaceChildren();
    pieces.replaceChildren();
    hits.replaceChildren();

    const last = view.last_move ? view.last_move.split("-") : [];
    const lastTarget = last[last.length - 1];
    const grown = new Set(view.last_grown || []);
    // the last move: its source and target, with faint lines of sight to what it grew
    if (lastTarget) {
      const t = at(lastTarget);
      for (const point of grown) {
        const p = at(point);
        svg("line", { x1: t.x, y1: t.y, x2: p.x, y2: p.y, class: "sight-ray last" }, marks);
      }
      for (const point of last) {
        const { x, y } = at(point);
        svg("circle", { cx: x, cy: y, r: 32, class: point === lastTarget ? "sight-last" : "sight-last from" }, marks);
      }
    }
    for (const point of Object.keys(sources)) {
      const { x, y } = at(point);
      svg("circle", { cx: x, cy: y, r: 36, class: point === selected ? "selected-ring" : "movable-ring sight-pulse" }, marks);
    }
    for (const point of Object.keys(targets)) {
      const { x, y } = at(point);
      svg("circle", { cx: x, cy: y, r: phase === "place" ? 8 : 11, class: "target-dot sight-target" }, marks);
    }

    for (const point of view.points) {
      const stack = view.board[point];
      const { x, y } = at(point);
      tops[point] = stack ? drawStack(pieces, stack, x, y) : y;

      const group = svg("g", { "data-point": point, class: "sight-point" }, hits);
      group.dataset.height = String(stack ? stack.height : 0);
      if (stack) group.dataset.colour = stack.colour;
      if (grown.has(point)) group.classList.add("grown");
      if (last.includes(point)) group.classList.add("last");
      const clickable = point in sources || point in targets;
      if (point in sources) group.classList.add("movable");
      if (point === selected) group.classList.add("selected");
      if (point in targets) {
        group.classList.add("target");
        group.dataset.move = targets[point];
      }
      svg("circle", { cx: x, cy: y, r: GAP / 2 - 2, class: "sight-hit" }, group);
      if (clickable) {
        group.classList.add("clickable");
        group.setAttribute("tabindex", "0");
        group.setAttribute("role", "button");
        group.setAttribute("aria-label", point in targets ? targets[point] : point);
      }
      group.addEventListener("click", (event) => { event.stopPropagation(); onPoint(point); });
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          pointerType = "keyboard";
          onPoint(point);
        }
      });
      if (point in targets) {
        group.addEventListener("pointerenter", (event) => {
          if (event.pointerType === "mouse") { hovered = targets[point]; drawPreview(); }
        });
        group.addEventListener("pointerleave", (event) => {
          if (event.pointerType === "mouse" && hovered === targets[point]) { hovered = null; drawPreview(); }
        });
        group.addEventListener("focus", () => { hovered = targets[point]; drawPreview(); });
        group.addEventListener("blur", () => { if (hovered === targets[point]) { hovered = null; drawPreview(); } });
      }
    }
    drawPreview();
  }

  // The preview layer: lines of sight from the would-be target, +1 badges, a ghost piece.
  function drawPreview() {
    const view = match.view;
    const lines = layers.sightLines;
    const badges = layers.badges;
    lines.replaceChildren();
    badges.replaceChildren();
    const move = pending ?? hovered;
    canvas.dataset.preview = move ?? "";
    for (const group of layers.hits.querySelectorAll(".preview-grow")) group.classList.remove("preview-grow");
    if (!move || !view.growth?.[move]) {
      for (const point of view.last_grown || []) badge(badges, point, tops[point], "+1", "last");
      drawActions();
      return;
    }
    const parts = move.split("-");
    const target = parts[parts.length - 1];
    const source = parts.length === 2 ? parts[0] : null;
    const grows = new Set(view.growth[move]);
    const t = at(target);
    for (const point of view.sight?.[target] || []) {
      if (grows.has(point)) continue;
      const p = at(point);
      svg("line", { x1: t.x, y1: t.y, x2: p.x, y2: p.y, class: "sight-ray seen" }, lines);
    }
    for (const point of grows) {
      const p = at(point);
      svg("line", { x1: t.x, y1: t.y, x2: p.x, y2: p.y, class: "sight-ray grow" }, lines);
      layers.hits.querySelector(`[data-point="${point}"]`)?.classList.add("preview-grow");
    }
    const colour = myColour();
    const ghost = svg("g", { class: "sight-ghost" }, badges);
    drawStack(ghost, { colour, height: 1 }, t.x, t.y);
    if (source) {
      const s = at(source);
      svg("line", { x1: s.x, y1: s.y, x2: t.x, y2: t.y, class: "sight-step" }, lines);
    }
    for (const point of grows) badge(badges, point, tops[point], "+1", "grow");
    drawActions();
  }

  function onPoint(point) {
    const { sources, targets } = options();
    if (point in targets) {
      const move = targets[point];
      if (pointerType === "touch" || pointerType === "pen") {
        if (pending === move) { commit(move); return; }
        pending = move;
        drawPreview();
        return;
      }
      commit(move);
      return;
    }
    pending = null;
    hovered = null;
    if (point in sources) selected = selected === point ? null : point;
    draw();
  }

  function commit(move) {
    selected = null;
    pending = null;
    hovered = null;
    draw();
    ctx.submit(move);
  }

  canvas.addEventListener("click", () => {
    if (pending || selected) { pending = null; selected = null; draw(); }
  });

  let shownActions = null;

  // The hint line and, for a tapped preview, the confirm/cancel buttons. Rebuilt only when they
  // change, so a focus change while pressing a button does not swap the button away mid-click.
  function drawActions() {
    const view = match.view;
    let text = "";
    if (myTurn()) {
      const move = pending ?? hovered;
      if (move && view.growth?.[move]) {
        const grows = view.growth[move];
        const key = grows.length === 0 ? "grows_none" : grows.length === 1 ? "grows_one" : "grows";
        text = say(key, { move, n: grows.length, points: grows.join(", ") });
        if (pending) text += ` ${say("tap_again")}`;
      } else if (view.phase === "place") text = say("place");
      else if (selected) text = say("target", { p: selected });
      else {
        const first = Object.keys(view.sources || {})[0];
        text = say("move", { h: first ? view.board[first].height : "" });
      }
    }
    const key = JSON.stringify([match.ply, text, pending]);
    if (key === shownActions) return;
    shownActions = key;
    ctx.actions.replaceChildren();
    if (!text) return;
    const hint = document.createElement("p");
    hint.className = "sight-hint";
    hint.textContent = text;
    ctx.actions.append(hint);
    if (pending) {
      const confirm = document.createElement("button");
      confirm.type = "button";
      confirm.className = "primary";
      confirm.dataset.action = "confirm";
      confirm.dataset.move = pending;
      confirm.textContent = say("confirm", { move: pending });
      confirm.addEventListener("click", () => commit(pending));
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.dataset.action = "cancel";
      cancel.textContent = say("cancel");
      cancel.addEventListener("click", () => { pending = null; drawPreview(); });
      ctx.actions.append(confirm, cancel);
    }
  }

  return {
    update(next) {
      if (!match || next.ply !== match.ply || next.your_seat !== match.your_seat) {
        selected = null;
        pending = null;
        hovered = null;
      }
      match = next;
      canvas.dataset.phase = match.view.phase ?? "over";
      draw();
    },
  };
}
