// Unit tests of the board kit's pure modules: `node --test tests/js/` (Node's built-in runner).
import assert from "node:assert/strict";
import { test } from "node:test";

import { backoffDelay, DEFAULT_POLICY } from "../../static/js/kit/backoff.js";
import { buttonMoves, clickMoves, clickStep } from "../../static/js/kit/clicks.js";
import { seenFromSecondSeat, squareGrid } from "../../static/js/kit/grid.js";
import { format, nt, PLURAL_KEY, t, useCatalog } from "../../static/js/kit/i18n.js";
import { ratingText } from "../../static/js/kit/rating.js";
import { isMyTurn, myMoves, playerName } from "../../static/js/kit/turn.js";

test("grid: file a / rank 1 is bottom-left, and top-right when flipped", () => {
  const grid = squareGrid({ files: 6, ranks: 6, pitch: 10, margin: 2 });
  assert.deepEqual([grid.at("a1").x, grid.at("a1").y], [2, 52]);
  assert.deepEqual([grid.at("f6").x, grid.at("f6").y], [52, 2]);
  const flipped = squareGrid({ files: 6, ranks: 6, pitch: 10, margin: 2, flipped: true });
  assert.deepEqual([flipped.at("a1").x, flipped.at("a1").y], [52, 2]);
  assert.deepEqual([flipped.at("f6").x, flipped.at("f6").y], [2, 52]);
  assert.deepEqual(grid.size, { width: 64, height: 64 });
});

test("grid: every square has its own cell, seen from either side", () => {
  for (const flipped of [false, true]) {
    const grid = squareGrid({ files: 5, ranks: 4, pitch: 1, flipped });
    const cells = new Set();
    for (let file = 0; file < 5; file++) for (let rank = 0; rank < 4; rank++) {
      const { x, y } = grid.at(grid.name(file, rank));
      cells.add(`${x},${y}`);
      assert.deepEqual(grid.parse(grid.name(file, rank)), { file, rank });
    }
    assert.equal(cells.size, 20);
  }
});

test("grid: coordinate labels follow the flip", () => {
  const labels = squareGrid({ files: 3, ranks: 3, pitch: 10, flipped: true }).labels();
  assert.deepEqual(labels.files.map((l) => [l.text, l.x]), [["a", 20], ["b", 10], ["c", 0]]);
  assert.deepEqual(labels.ranks.map((l) => [l.text, l.y]), [["1", 0], ["2", 10], ["3", 20]]);
  assert.equal(seenFromSecondSeat({ your_seat: 1 }), true);
  assert.equal(seenFromSecondSeat({ your_seat: null }), false);
});

test("backoff: doubles from the base up to the cap", () => {
  const noJitter = { ...DEFAULT_POLICY, jitter: 0 };
  assert.deepEqual([0, 1, 2, 3].map((a) => backoffDelay(a, noJitter)), [500, 1000, 2000, 4000]);
  assert.equal(backoffDelay(20, noJitter), DEFAULT_POLICY.max);
});

test("backoff: jitter spreads the delay below its ceiling, never above", () => {
  const policy = { base: 1000, factor: 2, max: 8000, jitter: 0.5 };
  assert.equal(backoffDelay(1, policy, () => 0), 1000);
  assert.equal(backoffDelay(1, policy, () => 0.999999), 2000);
  const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(2, policy)));
  assert.ok(delays.size > 10, "random jitter gives different delays");
  for (const delay of delays) assert.ok(delay >= 2000 && delay <= 4000, String(delay));
});

const payload = (extra) => ({ status: "active", your_seat: 1, to_move: 1, legal_moves: ["a1"], seats: [], ...extra });

test("turn: mine only while active, seated and to move", () => {
  assert.equal(isMyTurn(payload()), true);
  assert.equal(isMyTurn(payload({ to_move: 0 })), false);
  assert.equal(isMyTurn(payload({ status: "finished" })), false);
  assert.equal(isMyTurn(payload({ your_seat: null, to_move: null })), false);
  assert.equal(isMyTurn(null), false);
  assert.deepEqual(myMoves(payload()), ["a1"]);
  assert.deepEqual(myMoves(payload(), true), [], "a read-only board offers no moves");
  assert.deepEqual(myMoves(payload({ to_move: 0 })), []);
});

test("turn: player names, with a fallback for open seats", () => {
  const match = { seats: [{ seat: 0, user: { name: "Aiko" } }, { seat: 1, user: null }] };
  assert.equal(playerName(match, 0), "Aiko");
  assert.equal(playerName(match, 1, "open"), "open");
});

test("clicks: one- and two-step moves come from the server's map", () => {
  const clicks = { a1: { b2: "a1-b2", a2: "a1-a2" }, c3: "c3" };
  assert.deepEqual(clickStep(clicks).targets, { a1: null, c3: "c3" });
  assert.deepEqual(clickStep(clicks, ["a1"]).targets, { b2: "a1-b2", a2: "a1-a2" });
  assert.equal(clickStep(clicks, ["a1", "b2"]).move, "a1-b2");
  assert.equal(clickStep(clicks, ["c3"]).move, "c3");
  assert.equal(clickStep(clicks, ["zz"]).valid, false);
  assert.deepEqual(clickMoves(clicks).sort(), ["a1-a2", "a1-b2", "c3"]);
  assert.deepEqual(buttonMoves(["a1-b2", "pass", "swap", "c3"], clicks), ["pass", "swap"]);
});

test("i18n: placeholders filled, catalog used, unknown msgids shown as written", () => {
  assert.equal(format("{name} wins", { name: "Aiko" }), "Aiko wins");
  assert.equal(format("{n} left, {m}", { n: 3 }), "3 left, {m}");
  useCatalog({ "{name} wins": "{name} さんの勝ち" });
  assert.equal(t("{name} wins", { name: "Aiko" }), "Aiko さんの勝ち");
  assert.equal(t("Untranslated {x}", { x: 1 }), "Untranslated 1");
});

test("i18n: a count picks its plural form, English by its rule, Japanese its one form", () => {
  useCatalog({}, "en");
  assert.equal(nt("{n} blunder", "{n} blunders", 1), "1 blunder");
  assert.equal(nt("{n} blunder", "{n} blunders", 5), "5 blunders");
  assert.equal(nt("{n} blunder", "{n} blunders", 0), "0 blunders");
  useCatalog({ ["{n} blunder" + PLURAL_KEY]: "大悪手{n}回" }, "ja");
  assert.equal(nt("{n} blunder", "{n} blunders", 1), "大悪手1回");
  assert.equal(nt("{n} blunder", "{n} blunders", 5), "大悪手5回");
});

test("turn: a level's further bot keeps its number", () => {
  useCatalog({}, "en");
  const match = { seats: [{ seat: 0, user: { id: 7, kind: "bot", name: "Bot 2 (easy)" } }] };
  assert.equal(playerName(match, 0), "Bot 2 (easy)");
});

test("rating: provisional ratings carry a question mark", () => {
  assert.equal(ratingText({ display: 1512, provisional: false }), "1512");
  assert.equal(ratingText({ display: 1500, provisional: true }), "1500?");
  assert.equal(ratingText(null), "");
});

test("names: built-in bots sharing a match are numbered; people keep their names", () => {
  const bot = { id: 7, name: "Bot (easy)", kind: "bot" };
  const match = { seats: [{ seat: 0, user: bot }, { seat: 1, user: { id: 1, name: "Aiko", kind: "guest" } },
    { seat: 2, user: bot }] };
  assert.equal(playerName(match, 0), "Bot 1 (easy)");
  assert.equal(playerName(match, 2), "Bot 2 (easy)");
  assert.equal(playerName(match, 1), "Aiko");
  const alone = { seats: [{ seat: 0, user: { id: 8, name: "Bot (hard)", kind: "bot" } }] };
  assert.equal(playerName(alone, 0), "Bot (hard)");
  const account = { seats: [{ seat: 0, user: { id: 9, name: "Bot (hard)", kind: "account" } }] };
  assert.equal(playerName(account, 0), "Bot (hard)", "only programs are read as built-in bots");
});
