// @ts-check
// The HTML around the town: the offer cards, each player's card (interests, diary, running score),
// the final score table, the phase banner and the walker's choice buttons.
import { el, isBotSeat, svg } from "/static/js/kit/index.js";
import { drawCard, drawGlyph, EVENT_STYLE } from "./art.js";
import { CH, CW, slotName } from "./geometry.js";
import { routeWords } from "./route.js";
import { myTurn, playerName, slotsFor, view } from "./state.js";
import { drawTown } from "./town.js";
import { replay } from "./walks.js";
import { cardWords, colourOf, eventName, fill, SEAT_COLOURS, words } from "./words.js";

export function miniCard(b, parent, id) {
  const v = view(b);
  const box = svg("svg", { viewBox: `-2 -2 ${CW + 4} ${CH + 4}`, class: "town-mini", role: "img", "aria-label": id }, parent);
  const mine = b.match.your_seat !== null ? new Set(v.characters?.[b.match.your_seat]?.interests ?? []) : new Set();
  drawCard(box, v, id, 0, 0, { interest: v.cards?.[id]?.event && mine.has(v.cards[id].event) });
  return box;
}

/** "Aiko is building." / "Bot 1 (easy) is building.": a bot's name without the honorific. */
function whoIs(b, seat, person, bot) {
  return isBotSeat(b.match, seat) ? fill(bot, { bot: playerName(b, seat) }) : fill(person, { name: playerName(b, seat) });
}

export function drawOffer(b) {
  const v = view(b);
  const w = words();
  b.offerPanel.replaceChildren();
  b.offerPanel.hidden = v.phase !== "build";
  if (v.phase !== "build") return;
  el("h3", {}, b.offerPanel, w.offer);
  const row = el("div", { class: "town-offer-row" }, b.offerPanel);
  const decks = [[v.offer?.[0], w.pathDeck, v.deck_sizes?.path], [v.offer?.[1], w.eventDeck, v.deck_sizes?.event]];
  const mine = myTurn(b);
  for (const [id, label, size] of decks) {
    const cell = el("div", { class: "town-offer-cell" }, row);
    if (id) {
      const slots = slotsFor(b, id);
      const button = el("button", { type: "button", class: "town-offer-card" + (b.selected === id ? " selected" : "") + (mine && slots.length ? " movable" : ""),
        "data-offer": id, disabled: !mine || slots.length === 0, "aria-pressed": String(b.selected === id) }, cell);
      // The button is named by its card's picture ("E4, Café"): a label of its own would differ
      // from the card's printed text, which assistive technology checks against it.
      miniCard(b, button, id).setAttribute("aria-label", cardWords(v, id));
      button.addEventListener("click", (event) => {
        b.selected = b.selected === id ? null : id;
        drawTown(b);
        drawOffer(b);
        // chosen from the keyboard (a click with no pointer): go on to the first slot it fits
        if (b.selected && event.detail === 0) b.keys?.focus(slotsFor(b, b.selected)[0]);
        else b.offerPanel.querySelector(`[data-offer="${id}"]`)?.focus();
      });
    } else {
      el("div", { class: "town-offer-empty" }, cell, w.empty);
    }
    el("div", { class: "town-deck-label" }, cell, `${label} · ${fill(w.left, { n: size ?? 0 })}`);
  }
  let hint;
  if (!mine) hint = b.match.status === "active" ? whoIs(b, b.match.to_move, w.waitBuild, w.waitBuildBot) : "";
  else if (b.selected) hint = fill(w.pickSlot, { card: b.selected });
  else hint = w.pickOffer;
  el("p", { class: "town-hint" }, b.offerPanel, hint);
  if (mine && v.fallback) el("p", { class: "town-hint town-fallback" }, b.offerPanel, w.fallback);
}

export function diaryOf(b, seat) {
  const steps = view(b).walks[seat] ?? [];
  const count = Math.min(b.shown?.[seat] ?? steps.length, steps.length);
  const diary = [];
  for (let i = 0; i < count; i++) if (steps[i].diary) diary.push(steps[i].diary);
  return count === steps.length ? view(b).diaries[seat] : diary;
}

export function diaryChip(b, parent, seat, event, points) {
  const v = view(b);
  const interest = event !== "sunset" && v.characters?.[seat]?.interests?.includes(event);
  const [tint, ink] = EVENT_STYLE[event] ?? ["#eee", "#333"];
  const chip = el("li", { class: "town-chip" + (interest ? " interest" : "") + (event === "sunset" ? " sunset" : ""), "data-diary": event }, parent);
  chip.style.background = tint;
  chip.style.color = ink;
  const icon = svg("svg", { viewBox: "0 0 24 24", class: "town-chip-icon", "aria-hidden": "true" }, chip);
  drawGlyph(icon, event, 0, 0, 24, ink);
  el("span", {}, chip, eventName(v, event));
  if (interest) el("span", { class: "town-star", title: words().interests }, chip, "★");
  el("span", { class: "town-chip-points" }, chip, `+${points}`);
  return chip;
}

export function drawPlayers(b) {
  const v = view(b);
  const w = words();
  b.playersPanel.replaceChildren();
  const n = v.players ?? v.walks.length;
  for (let seat = 0; seat < n; seat++) {
    const colour = colourOf(v, seat);
    const card = el("article", { class: "town-player" + (v.walker === seat ? " walking" : ""), "data-player-seat": seat }, b.playersPanel);
    card.style.setProperty("--seat", SEAT_COLOURS[colour]);
    const head = el("header", {}, card);
    el("span", { class: "town-dot" }, head);
    el("strong", {}, head, playerName(b, seat));
    if (b.match.your_seat === seat) el("span", { class: "town-you" }, head, `(${w.you})`);
    const start = v.start_cards?.[seat];
    el("span", { class: "town-start" + (start ? "" : " secret"), "data-start": start ?? "", title: w.start }, head,
      start ? `${w.start} ${start}` : `${w.start} ?`);
    const interests = el("div", { class: "town-interests" }, card);
    el("span", { class: "town-label" }, interests, `${w.colours[colour]} · ${w.interests}:`);
    for (const event of v.characters?.[seat]?.interests ?? []) {
      const tag = el("span", { class: "town-interest-tag", title: eventName(v, event) }, interests);
      const icon = svg("svg", { viewBox: "0 0 24 24", class: "town-chip-icon", "aria-hidden": "true" }, tag);
      drawGlyph(icon, event, 0, 0, 24, EVENT_STYLE[event]?.[1] ?? "#333");
      el("span", {}, tag, eventName(v, event));
    }
    const diary = diaryOf(b, seat);
    const list = el("ul", { class: "town-diary", "data-diary-seat": seat }, card);
    if (diary.length === 0) el("li", { class: "town-none" }, list, w.noDiary);
    const points = v.diary_points?.[seat] ?? [];
    diary.forEach((event, i) => diaryChip(b, list, seat, event, points[i]));
    const foot = el("footer", {}, card);
    const score = points.slice(0, diary.length).reduce((sum, value) => sum + value, 0);
    el("span", { class: "town-score", "data-score": score }, foot, `${score} ${w.points}`);
    let state = "";
    if (v.walk_end?.[seat] && (b.shown?.[seat] ?? 0) >= v.walks[seat].length) state = `${w.walkOver}: ${w.ends[v.walk_end[seat]] ?? v.walk_end[seat]}`;
    else if (v.walker === seat) state = w.walkingNow;
    else if (v.phase === "walk") state = w.waitingWalk;
    el("span", { class: "town-state" }, foot, state);
    // the walk as a path, for screen readers (the board's R key reads every walk)
    if ((v.walks[seat] ?? []).length) el("p", { class: "visually-hidden", "data-route-seat": seat }, card, routeWords(v, seat));
  }
}

export function drawFinal(b) {
  const v = view(b);
  const w = words();
  b.scorePanel.replaceChildren();
  b.scorePanel.hidden = v.phase !== "over" || b.root.dataset.animating === "yes";
  if (b.scorePanel.hidden) return;
  el("h3", {}, b.scorePanel, w.finalScores);
  const table = el("table", { id: "town-scores", class: "town-score-table" }, b.scorePanel);
  const head = el("tr", {}, el("thead", {}, table));
  for (const label of [w.player, w.diary, w.total]) el("th", {}, head, label);
  const body = el("tbody", {}, table);
  const winners = b.match.result?.winners ?? [];
  const order = [...Array(v.players).keys()].sort((a, b) => v.scores[b] - v.scores[a] || a - b);
  for (const seat of order) {
    const row = el("tr", { "data-score-seat": seat, class: winners.includes(seat) ? "winner" : "" }, body);
    row.style.setProperty("--seat", SEAT_COLOURS[colourOf(v, seat)]);
    const who = el("td", { class: "town-who" }, row);
    el("span", { class: "town-dot" }, who);
    el("span", {}, who, playerName(b, seat));
    if (winners.includes(seat)) el("span", { class: "town-crown", title: "★" }, who, "♛");
    const cards = el("td", {}, row);
    const list = el("ul", { class: "town-diary" }, cards);
    v.diaries[seat].forEach((event, i) => diaryChip(b, list, seat, event, v.diary_points?.[seat]?.[i]));
    el("td", { class: "town-total" }, row, String(v.scores[seat]));
  }
  el("p", { class: "town-note" }, b.scorePanel, fill(w.interestNote, v.score_rule ?? {}));
}

export function drawBanner(b) {
  const v = view(b);
  const w = words();
  b.banner.replaceChildren();
  if (v.phase === "build") {
    el("span", { class: "town-phase" }, b.banner, `${w.building} · ${v.placed}/${v.slots}`);
  } else if (v.phase === "walk" && v.walker !== null) {
    const tag = el("span", { class: "town-phase" }, b.banner);
    tag.style.setProperty("--seat", SEAT_COLOURS[colourOf(v, v.walker)]);
    el("span", { class: "town-dot" }, tag);
    tag.append(whoIs(b, v.walker, w.walking, w.walkingBot));
  } else if (v.phase === "over") {
    el("span", { class: "town-phase" }, b.banner, w.allDone);
  }
  if (v.phase !== "build" && v.walks.some((s) => s.length > 1)) {
    const button = el("button", { type: "button", class: "town-replay", "data-action": "replay" }, b.banner, `▶ ${w.replay}`);
    button.addEventListener("click", () => replay(b));
  }
}

export function drawActions(b) {
  const v = view(b);
  const w = words();
  b.ctx.actions.replaceChildren();
  if (!myTurn(b) || v.phase !== "walk" || !v.pending) return;
  const steps = v.walks[v.walker] ?? [];
  const at = steps[steps.length - 1];
  const box = el("div", { class: "town-choices" }, b.ctx.actions);
  const prompt = at?.row === 0 ? fill(w.startChoice, { n: at.col + 1 })
    : fill(w.cardChoice, { slot: at ? slotName(at.col, at.row) : "", side: w.sides[at?.side] ?? "" });
  el("p", { class: "town-choice-prompt" }, box, `${w.yourWalk} ${prompt}`);
  const row = el("div", { class: "town-choice-row" }, box);
  const arrows = { UR: "↗", UL: "↖", straight: at?.dir === "left" ? "←" : "→", rev: "↩" };
  for (const move of v.pending) {
    if (!b.match.legal_moves.includes(move)) continue;
    const button = el("button", { type: "button", class: "primary town-choice", "data-move": move, title: w.actionHint[move] }, row);
    el("span", { class: "town-choice-arrow", "aria-hidden": "true" }, button, arrows[move] ?? "");
    el("span", {}, button, w.actions[move]);
    el("code", {}, button, move);
    button.addEventListener("click", () => b.ctx.submit(move));
  }
}
