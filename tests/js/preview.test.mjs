// Move previews and play without sight, the pure parts: the "Confirm moves" setting
// (kit/confirm.js), what a tap chose, the preview's payload and speech (preview.js), stacks read
// bottom to top (kit/readout.js), the reader keys (kit/focusgrid.js), Town walks read as paths
// (games/town/route.js) and the drag threshold (kit/drag.js). `node --test tests/js/`.
import assert from "node:assert/strict";
import { register } from "node:module";
import { test } from "node:test";

import {
  confirmChoice, confirmSetting, isPhone, keySelector, tapKey, wantsConfirm,
} from "../../static/js/kit/confirm.js";
import { isDrag } from "../../static/js/kit/drag.js";
import { readerFor } from "../../static/js/kit/focusgrid.js";
import { useCatalog } from "../../static/js/kit/i18n.js";
import { listed, stackReading } from "../../static/js/kit/readout.js";
import { changedCells, previewPayload, previewSpeech } from "../../static/js/preview.js";

// The renderers import the kit as the browser does, by its URL (/static/…): resolve it here.
const ROOT = new URL("../../", import.meta.url).href;
register(`data:text/javascript,${encodeURIComponent(`
  export function resolve(specifier, context, next) {
    return next(specifier.startsWith("/static/") ? ${JSON.stringify(ROOT)} + specifier.slice(1) : specifier, context);
  }`)}`);
const { routeWords, routesWords, slotWords } = await import("../../static/games/town/route.js");

const PHONE = { coarse: true, shortSide: 390 };
const TABLET = { coarse: true, shortSide: 820 };
const DESKTOP = { coarse: false, shortSide: 900 };

test("confirm moves: always, never, and on phones only — a touch screen of a phone's size", () => {
  for (const device of [PHONE, TABLET, DESKTOP]) {
    assert.equal(wantsConfirm("always", device), true);
    assert.equal(wantsConfirm("never", device), false);
  }
  assert.equal(wantsConfirm("phones", PHONE), true);
  assert.equal(wantsConfirm("phones", TABLET), false);
  assert.equal(wantsConfirm("phones", DESKTOP), false);
  assert.equal(isPhone({ coarse: false, shortSide: 375 }), false, "a narrow window with a mouse is no phone");
});

test("confirm moves: the account's choice on the page wins over the browser's; anything odd is the default", () => {
  const storage = (value) => ({ getItem: () => value });
  const holder = (value) => /** @type {any} */ ({ dataset: value === undefined ? {} : { confirmMoves: value } });
  assert.equal(confirmSetting(holder("never"), storage("always")), "never");
  assert.equal(confirmSetting(holder(undefined), storage("always")), "always");
  assert.equal(confirmSetting(null, storage(null)), "phones");
  assert.equal(confirmSetting(null, storage("sometimes")), "phones");
  assert.equal(confirmSetting(null, { getItem() { throw new Error("private mode"); } }), "phones");
  assert.equal(confirmChoice("always"), "always");
  assert.equal(confirmChoice(undefined), "phones");
});

/** A stand-in element: attributes, a tag and a parent. */
function node(attributes, parent = null, tagName = "G") {
  return /** @type {any} */ ({ tagName, parentElement: parent, getAttribute: (name) => attributes[name] ?? null });
}

test("a tap's key: the nearest tap attribute or cell, a move button's move, else nothing", () => {
  const square = node({ "data-square": "c3" });
  const disc = node({}, square, "ellipse");
  assert.equal(tapKey(disc, ["square"]), "c3");
  assert.equal(tapKey(node({ "data-body": "c3" }), ["square", "body", "tower"]), "c3",
    "a 3-D cube body names the same square as its face");
  assert.equal(tapKey(node({ "data-cell": "d4" }), []), "d4");
  assert.equal(tapKey(node({ "data-move": "pass" }, null, "BUTTON"), ["square"]), "move:pass");
  assert.equal(tapKey(node({}, node({ class: "board" })), ["square"]), null);
  assert.equal(tapKey(null, ["square"]), null);
  assert.equal(keySelector("c3", ["square", "body"]), '[data-square="c3"], [data-body="c3"], [data-cell="c3"]');
  assert.equal(keySelector("move:pass", ["square"]), 'button[data-move="pass"]');
  assert.equal(keySelector('a"b', []), '[data-cell="a\\"b"]');
});

test("the preview's payload: the view after the move at the live ply, nobody's clicks, the mover's last move", () => {
  const live = /** @type {any} */ ({ view: { board: "before" }, legal_moves: ["a1-b2"], status: "active", to_move: 0,
    your_seat: 0, seats: [{ seat: 0 }, { seat: 1 }], ply: 4, result: null });
  const preview = { ply: 5, move: "a1-b2", view: { board: "after" }, changes: [
    { kind: "lands", message: "lands on b2 at height 2", targets: ["b2"] },
    { kind: "frees", message: "c3 may move", targets: ["c3", "b2"] },
  ] };
  const drawn = previewPayload(live, preview);
  assert.deepEqual(drawn.view, { board: "after" });
  assert.equal(drawn.ply, 4, "the live ply: the board keeps its selection");
  assert.deepEqual(drawn.legal_moves, []);
  assert.equal(drawn.to_move, 1, "not the viewer's turn: nothing is clickable");
  assert.deepEqual(drawn.last_move, { seat: 0, move: "a1-b2", ply: 5 });
  assert.equal(drawn.preview.move, "a1-b2");
  assert.deepEqual(changedCells(preview.changes), ["b2", "c3"]);
  assert.deepEqual(live.view, { board: "before" }, "the live payload is left alone");
});

test("the preview read aloud: the move, each change, how to play it", () => {
  useCatalog({});
  const said = previewSpeech("a1 to b2", [{ kind: "lands", message: "Lands on b2 at height 2." },
    { kind: "locks", message: "c3 is locked." }]);
  assert.equal(said, "Preview of a1 to b2: Lands on b2 at height 2. c3 is locked. Select it again to play it; anything else cancels.");
  assert.match(previewSpeech("c3", []), /Nothing else changes\./);
  assert.match(previewSpeech("c3", null), /^No preview could be made for c3\./);
  useCatalog({
    "Preview of {move}: {changes}": "{move}のプレビュー：{changes}",
    "Select it again to play it; anything else cancels.": "もう一度選ぶと指します。ほかの操作で取り消します。",
  }, "ja");
  assert.equal(previewSpeech("a1からb2へ", [{ kind: "lands", message: "b2に着地。" }]),
    "a1からb2へのプレビュー：b2に着地。もう一度選ぶと指します。ほかの操作で取り消します。");
  useCatalog({});
});

test("a stack read bottom to top, in either language", () => {
  useCatalog({});
  assert.equal(stackReading("c3", ["light", "dark", "light"]), "c3: 3 high, from the bottom: light, dark, light.");
  assert.equal(stackReading("c3", ["dark"]), "c3: 1 high: dark.");
  assert.equal(stackReading("c3", []), "c3: empty.");
  useCatalog({ "{square}: {n} high, from the bottom: {pieces}.": "{square}：高さ{n}、下から{pieces}。" }, "ja");
  assert.equal(stackReading("c3", ["白", "黒"]), "c3：高さ2、下から白、黒。");
  assert.equal(listed(["a", "b"]), "a、b");
  useCatalog({});
});

test("reader keys: a plain letter either case, never with a modifier", () => {
  const readers = [{ key: "s" }, { key: "R" }];
  assert.equal(readerFor(readers, { key: "s" }), 0);
  assert.equal(readerFor(readers, { key: "S" }), 0);
  assert.equal(readerFor(readers, { key: "r" }), 1);
  assert.equal(readerFor(readers, { key: "s", ctrlKey: true }), -1);
  assert.equal(readerFor(readers, { key: "Enter" }), -1);
  assert.equal(readerFor(readers, { key: "x" }), -1);
});

const TOWN = {
  players: 2, colours: ["red", "blue"],
  grid: [["P4", "E2", null, null, null, null, null], [null, "P7", null, null, null, null, null], [], []],
  cards: { P4: { kind: "stairs" }, E2: { kind: "event", event: "bakery" }, P7: { kind: "stairs" } },
  walks: [
    [{ pos: "a0", col: 0, row: 0, dir: null }, { pos: "a1", col: 0, row: 1, dir: "right" },
      { pos: "b1", col: 1, row: 1, dir: "right", diary: "bakery" }, { pos: "b2", col: 1, row: 2, dir: "left", action: "rev" }],
    [],
  ],
  walk_end: ["loop", null],
};

test("a Town walk read as a path, card by card", () => {
  useCatalog({});
  assert.equal(routeWords(TOWN, 0),
    "Red: from seaside 1; up right to a1 (P4, stairs); right to b1 (E2, Bakery), diary: Bakery; "
    + "turns round, then up left to b2 (P7, stairs). Walk over: walked in a loop.");
  assert.equal(routeWords(TOWN, 1), "Blue: no walk yet.");
  assert.match(routesWords(TOWN), /^Red: .* Blue: no walk yet\.$/);
  assert.equal(slotWords(TOWN, "b1", (seat) => ["Aiko", "Ben"][seat]), "b1: E2, Bakery. Walked through by Aiko.");
  assert.equal(slotWords(TOWN, "c3", () => ""), "c3: empty.");
  assert.equal(slotWords(TOWN, "b2", () => "x"), "b2: P7, stairs. Walked through by x.");
});

test("a press that moves a few pixels is still a click; further, a drag", () => {
  assert.equal(isDrag(2, 3), false);
  assert.equal(isDrag(6, 0), true);
  assert.equal(isDrag(-4, -5), true);
});
