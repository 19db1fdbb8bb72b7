// @ts-check
// The town itself: the lighthouse row, the 7×4 slots with their cards, the seaside row, the marks
// of what may be played and of the last move.
import { cellName, clickStep, lang, svg } from "/static/js/kit/index.js";
import { drawCard, drawLighthouse } from "./art.js";
import {
  CH, COLS, CW, GAP, HEIGHT, LEFT, LETTERS, PITCH_X, ROWS, SEA, SEA_TOP, SKY, TOP, cardX, cardY, centre, slotName,
} from "./geometry.js";
import { myTurn, playerName, slotsFor, view } from "./state.js";
import { cardWords, colourOf, eventName, SEAT_COLOURS, words } from "./words.js";

export function lastPlacement(b) {
  return view(b).last_marks?.[0] ?? null; // the slot just built
}

export function lastChoiceStep(b) {
  const last = view(b).last_move;
  if (!last || view(b).last_marks?.length) return null; // no walk choice: a card was built
  const steps = view(b).walks[last.seat] ?? [];
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i].chosen) return steps[i];
  return null;
}

function drawSky(b, v, w) {
  const sky = svg("g", { class: "town-sky", "data-lighthouse": v.lighthouse ?? "" }, b.cardsLayer);
  svg("rect", { x: LEFT, y: TOP, width: COLS * PITCH_X - GAP, height: SKY, rx: 8,
    fill: "url(#town-sky-fill)", stroke: "#9fb7c9", "stroke-width": 1 }, sky);
  if (!b.canvas.querySelector("#town-sky-fill")) {
    const grad = svg("linearGradient", { id: "town-sky-fill", x1: 0, y1: 0, x2: 0, y2: 1 }, b.defs);
    svg("stop", { offset: "0", "stop-color": "#f7b267" }, grad);
    svg("stop", { offset: "1", "stop-color": "#fde6c4" }, grad);
    const sea = svg("linearGradient", { id: "town-sea-fill", x1: 0, y1: 0, x2: 0, y2: 1 }, b.defs);
    svg("stop", { offset: "0", "stop-color": "#8ec9e0" }, sea);
    svg("stop", { offset: "1", "stop-color": "#3f8fb5" }, sea);
  }
  svg("text", { x: LEFT + 10, y: TOP + 20, class: "town-row-title" }, sky, `${w.lighthouse} · ${eventName(v, "sunset")}`);
  if (v.lighthouse) {
    const col = LETTERS.indexOf(v.lighthouse[0]);
    drawLighthouse(sky, cardX(col) + CW / 2, TOP + SKY - 4);
  } else {
    svg("text", { x: cardX(3) + CW / 2, y: TOP + SKY / 2 + 10, "text-anchor": "middle", class: "town-muted-label" }, sky, "?");
  }
}

const lastRing = (group, x, y, height) => {
  group.classList.add("last");
  svg("rect", { x: x - 2, y: y - 2, width: CW + 4, height: height + 4, rx: 10, class: "town-last-ring" }, group);
};

/** One slot of the town: its card or its empty frame, the target marks, the last-move ring. */
function drawSlot(b, v, col, row, marks) {
  const name = slotName(col, row);
  const id = v.grid?.[row - 1]?.[col] ?? null;
  const x = cardX(col);
  const y = cardY(row);
  const group = svg("g", { "data-slot": name, class: "town-slot" }, b.cardsLayer);
  if (id) {
    const card = v.cards?.[id];
    drawCard(group, v, id, x, y, { interest: card?.event && marks.mine.has(card.event) });
  } else {
    svg("rect", { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, rx: 8, class: "town-empty" }, group);
    svg("text", { x: x + CW / 2, y: y + CH / 2 + 5, "text-anchor": "middle", class: "town-empty-label" }, group, name);
  }
  if (marks.targets.includes(name)) {
    group.classList.add("clickable", "target");
    svg("rect", { x: x + 2, y: y + 2, width: CW - 4, height: CH - 4, rx: 8, class: "town-target-ring" }, group);
    svg("circle", { cx: x + CW / 2, cy: y + CH / 2 - 18, r: 12, class: "town-target-dot" }, group);
    svg("path", { d: `M${x + CW / 2 - 6} ${y + CH / 2 - 18}h12M${x + CW / 2} ${y + CH / 2 - 24}v12`, stroke: "#fff", "stroke-width": 2.4, "stroke-linecap": "round" }, group);
    group.addEventListener("click", () => place(b, name));
  }
  const last = marks.placed === name || (marks.choice && marks.choice.row === row && marks.choice.col === col);
  if (last) lastRing(group, x, y, CH);
  svg("rect", { x: x - 3, y: y - 3, width: CW + 6, height: CH + 6, rx: 11, class: "town-focus-ring" }, group);
  const w = words();
  const states = [marks.targets.includes(name) ? w.placeHere : "", last ? w.lastMove : ""];
  const label = id ? [name, cardWords(v, id), ...states].filter(Boolean).join(lang() === "ja" ? "、" : ", ")
    : cellName({ square: name, states });
  return { id: name, x: col, y: ROWS - row, node: group, label };
}

function drawSeaside(b, v, w, choice) {
  const starts = publicStarts(b);
  for (let col = 0; col < COLS; col++) {
    const x = cardX(col);
    const group = svg("g", { "data-seaside": col + 1, class: "town-seaside" }, b.cardsLayer);
    svg("rect", { x, y: SEA_TOP, width: CW, height: SEA, rx: 8, fill: "url(#town-sea-fill)", stroke: "#2b5f78", "stroke-width": 1.2 }, group);
    svg("path", { d: `M${x + 8} ${SEA_TOP + 46}q7 -6 14 0t14 0t14 0t14 0t14 0t14 0`, fill: "none", stroke: "#e8f6fb", "stroke-width": 1.6, opacity: 0.8 }, group);
    svg("rect", { x, y: SEA_TOP, width: CW, height: 16, rx: 8, fill: "#ead9b0" }, group);
    svg("text", { x: x + CW / 2, y: SEA_TOP + 40, "text-anchor": "middle", class: "town-sea-number" }, group, String(col + 1));
    starts.filter((s) => s.card === col + 1).forEach((s, i) => {
      const fx = x + 12 + i * 16;
      const flag = svg("g", { class: "town-start-flag", "data-start-seat": s.seat }, group);
      svg("line", { x1: fx, y1: SEA_TOP + 58, x2: fx, y2: SEA_TOP + 22, stroke: "#333", "stroke-width": 1.5 }, flag);
      svg("path", { d: `M${fx} ${SEA_TOP + 22}l11 4.5-11 4.5z`, fill: SEAT_COLOURS[colourOf(v, s.seat)], stroke: "#0007", "stroke-width": 0.8 }, flag);
      svg("title", {}, flag, `${w.start} ${s.card} — ${playerName(b, s.seat)}`);
    });
    if (choice && choice.row === 0 && choice.col === col) lastRing(group, x, SEA_TOP, SEA);
    svg("text", { x: x + CW / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "town-coord" }, b.cardsLayer, LETTERS[col]);
  }
}

/** The walker's pending card pulses. */
function drawPending(b, v) {
  if (v.phase !== "walk" || v.walker === null || !v.pending) return;
  const steps = v.walks[v.walker] ?? [];
  const at = steps[steps.length - 1];
  if (!at) return;
  const [cx, cy] = centre(at.col, at.row);
  const h = at.row === 0 ? SEA : CH;
  svg("rect", { x: cx - CW / 2 - 3, y: cy - h / 2 - 3, width: CW + 6, height: h + 6, rx: 11,
    class: "town-pending-ring", stroke: SEAT_COLOURS[colourOf(v, v.walker)], "data-pending": slotName(at.col, at.row) }, b.cardsLayer);
}

export function drawTown(b) {
  const v = view(b);
  const w = words();
  b.cardsLayer.replaceChildren();
  const marks = {
    targets: myTurn(b) && v.phase === "build" && b.selected ? slotsFor(b, b.selected) : [],
    mine: new Set(b.match.your_seat !== null ? v.characters?.[b.match.your_seat]?.interests ?? [] : []),
    placed: lastPlacement(b),
    choice: lastChoiceStep(b),
  };
  drawSky(b, v, w);
  const cells = [];
  for (let row = ROWS; row >= 1; row--) {
    svg("text", { x: LEFT - 8, y: cardY(row) + CH / 2 + 5, "text-anchor": "middle", class: "town-coord" }, b.cardsLayer, String(row));
    for (let col = 0; col < COLS; col++) cells.push(drawSlot(b, v, col, row, marks));
  }
  drawSeaside(b, v, w, marks.choice);
  drawPending(b, v);
  b.keys?.attach(cells); // the keyboard's cells: the 28 slots (kit focusGrid)
}

export function publicStarts(b) {
  const v = view(b);
  return (v.start_cards ?? []).map((card, seat) => ({ card, seat })).filter((s) => s.card !== null && s.card !== undefined);
}

export function place(b, slot) {
  const move = b.selected ? clickStep(view(b).clicks, [b.selected, slot]).move : null;
  if (!move) return;
  b.ctx.submit(move); // the chosen card stays chosen while a preview waits
}

