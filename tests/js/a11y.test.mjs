// The keyboard and screen-reader kit (static/js/kit/focusgrid.js, announce.js) and Scalas' "nothing
// hidden" geometry: pure logic, `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { movePhrase, moveAnnouncement } from "../../static/js/kit/announce.js";
import { cellName, keyAction, nextCell } from "../../static/js/kit/focusgrid.js";
import { useCatalog } from "../../static/js/kit/i18n.js";
import { coverers, face, inside, project, startView, tapAreas, turned } from "../../static/games/scalas/geometry.js";

const square = (files, ranks) => {
  const cells = [];
  for (let y = 0; y < ranks; y++) for (let x = 0; x < files; x++) cells.push({ id: `${"abcdef"[x]}${ranks - y}`, x, y });
  return cells;
};

test("arrows move to the neighbour in the same row or column, and stop at the edge", () => {
  const cells = square(6, 6); // a6 top-left, f1 bottom-right
  assert.equal(nextCell(cells, "c3", "ArrowUp"), "c4");
  assert.equal(nextCell(cells, "c3", "ArrowDown"), "c2");
  assert.equal(nextCell(cells, "c3", "ArrowLeft"), "b3");
  assert.equal(nextCell(cells, "c3", "ArrowRight"), "d3");
  assert.equal(nextCell(cells, "a1", "ArrowLeft"), "a1");
  assert.equal(nextCell(cells, "f6", "ArrowUp"), "f6");
  assert.equal(nextCell(cells, "nowhere", "ArrowUp"), "a6", "nothing current yet: the first cell");
  assert.equal(nextCell([], null, "ArrowUp"), null);
});

test("every cell of a grid is reachable with the arrows (and on a staggered row of buttons)", () => {
  for (const cells of [square(6, 6), square(7, 4),
    [{ id: "pass", x: 0, y: 0 }, { id: "swap", x: 90, y: 0 }, { id: "long", x: 0, y: 40 }, { id: "x", x: 150, y: 40 }]]) {
    const seen = new Set([cells[0].id]);
    const queue = [cells[0].id];
    while (queue.length) {
      const id = queue.shift();
      for (const key of ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]) {
        const next = nextCell(cells, id, key);
        if (!seen.has(next)) { seen.add(next); queue.push(next); }
      }
    }
    assert.equal(seen.size, cells.length);
  }
});

test("keys: arrows move, Home/End jump, Enter and Space select, Escape cancels, others pass", () => {
  const cells = square(3, 3);
  assert.deepEqual(keyAction(cells, "b2", "ArrowRight"), { action: "move", to: "c2" });
  assert.deepEqual(keyAction(cells, "b2", "Home"), { action: "move", to: "a3" });
  assert.deepEqual(keyAction(cells, "b2", "End"), { action: "move", to: "c1" });
  assert.deepEqual(keyAction(cells, "b2", "Enter"), { action: "activate" });
  assert.deepEqual(keyAction(cells, "b2", " "), { action: "activate" });
  assert.deepEqual(keyAction(cells, "b2", "Escape"), { action: "cancel" });
  assert.equal(keyAction(cells, "b2", "a"), null);
  assert.equal(keyAction(cells, "b2", "Tab"), null, "Tab leaves the board");
});

test("cell names in English and Japanese", () => {
  useCatalog({}, "en");
  assert.equal(cellName({ square: "c3", colour: "light", height: 2 }), "c3, light, height 2");
  assert.equal(cellName({ square: "c3", states: ["move here", ""] }), "c3, empty, move here");
  useCatalog({ "{square}, {colour}, height {h}": "{square}、{colour}、高さ{h}", "{square}, empty": "{square}、空き" }, "ja");
  assert.equal(cellName({ square: "c3", colour: "白", height: 2, states: ["動かせます"] }), "c3、白、高さ2、動かせます");
  assert.equal(cellName({ square: "a1" }), "a1、空き");
  useCatalog({}, "en");
});

const payload = (extra) => ({
  ply: 5, status: "active", to_move: 0, your_seat: 0, legal_moves: ["a1-b2"],
  seats: [{ seat: 0, user: { name: "Aiko" } }, { seat: 1, user: { name: "Bot (easy)" } }],
  last_move: { ply: 5, seat: 1, move: "c3-d4" }, ...extra,
});
const colour = (p, seat) => ["Light", "Dark"][seat];

test("a move is announced once, with who played it, in words, and whose turn it is", () => {
  useCatalog({}, "en");
  assert.equal(moveAnnouncement(4, payload(), { seatLabel: colour }), "Bot (easy) (Dark): c3 to d4. Your turn.");
  assert.equal(moveAnnouncement(null, payload()), null, "the first drawing says nothing");
  assert.equal(moveAnnouncement(5, payload()), null, "a redraw of the same ply says nothing");
  assert.equal(moveAnnouncement(2, payload()), null, "a jump (replay, resync) says nothing");
  const mine = payload({ to_move: 1, last_move: { ply: 5, seat: 0, move: "pass" } });
  assert.equal(moveAnnouncement(4, mine, { seatLabel: colour }), "You (Light): Pass.");
  const over = payload({ status: "finished", to_move: null });
  assert.equal(moveAnnouncement(4, over), "Bot (easy): c3 to d4. Game over.");
  const spectator = payload({ your_seat: null });
  assert.equal(moveAnnouncement(4, spectator, { describe: (move) => `«${move}»` }), "Bot (easy): «c3-d4».");
});

test("the analysis board names the mover and who moves next, never \"you\"", () => {
  useCatalog({}, "en");
  const seats = [{ seat: 0, user: { name: "Player 1" } }, { seat: 1, user: { name: "Player 2" } }];
  const onBoard = payload({ analysis: true, seats, to_move: 1, your_seat: 1,
                            last_move: { ply: 5, seat: 0, move: "a1-b2" } });
  assert.equal(moveAnnouncement(4, onBoard, { seatLabel: colour }), "Player 1 (Light): a1 to b2. Player 2 to move.");
  const again = payload({ analysis: true, seats, to_move: 0, your_seat: 0,
                          last_move: { ply: 5, seat: 0, move: "c3-d4" } }); // the other seat passed
  assert.equal(moveAnnouncement(4, again), "Player 1: c3 to d4. Player 1 to move.");
  useCatalog({ "Player {n} to move": "プレイヤー{n}の番です" }, "ja");
  assert.equal(moveAnnouncement(4, onBoard), "Player 1: a1 to b2。プレイヤー2の番です。");
  useCatalog({}, "en");
});

test("moves are announced in Japanese on a Japanese page", () => {
  useCatalog({ "{from} to {to}": "{from}から{to}へ", "{name} ({colour}): {move}": "{name}（{colour}）：{move}",
    "Your turn": "あなたの番です" }, "ja");
  assert.equal(movePhrase("a1-b2"), "a1からb2へ");
  assert.equal(moveAnnouncement(4, payload(), { seatLabel: () => "黒" }), "Bot (easy)（黒）：c3からd4へ。あなたの番です。");
  useCatalog({}, "en");
});

/** Display cells of an n×n Scalas board with these heights (name -> height), turned `turn` times. */
function board(n, heights, turn = 0) {
  const cells = [];
  for (let file = 0; file < n; file++) for (let rank = 0; rank < n; rank++) {
    const name = `${"abcdefg"[file]}${rank + 1}`;
    const [u, v] = turned(file, rank, n, turn);
    cells.push({ name, u, v, h: heights[name] ?? 0 });
  }
  return cells;
}

test("Scalas: a tall tower covers the squares behind it, never those in front or beside", () => {
  const cover = coverers(board(5, { c3: 4 }));
  const behind = Object.keys(cover).filter((name) => cover[name].length).sort();
  assert.ok(behind.length >= 2, `a 4-cube tower hides something: ${behind}`);
  for (const name of behind) {
    assert.ok(cover[name].every(({ tower, cube }) => tower === "c3" && cube >= 0 && cube < 4), JSON.stringify(cover[name]));
  }
  // a 3-high square right behind it is covered by the 4th cube only: only that one turns see-through
  assert.deepEqual(coverers(board(5, { c3: 4, b4: 3 })).b4, [{ tower: "c3", cube: 3 }]);
  // in front of c3 (larger u − v: higher file, lower rank at turn 0) nothing is covered by it
  for (const name of ["d2", "e1", "d3", "c2"]) assert.deepEqual(cover[name], []);
  assert.deepEqual(cover.c3, [], "a tower never covers itself");
  const flat = coverers(board(5, {}));
  assert.ok(Object.values(flat).every((list) => list.length === 0), "an empty board hides nothing");
});

test("Scalas: rotating the board changes which squares a tower covers", () => {
  const before = coverers(board(5, { c3: 4 }, 0));
  const after = coverers(board(5, { c3: 4 }, 2));
  const hidden = (cover) => Object.keys(cover).filter((name) => cover[name].length).sort().join();
  assert.notEqual(hidden(before), hidden(after));
});

test("Scalas opens flat on a phone, 3D elsewhere, and keeps the browser's own choice", () => {
  assert.equal(startView(null, true), "flat");
  assert.equal(startView(null, false), "iso");
  assert.equal(startView("iso", true), "iso");
  assert.equal(startView("flat", false), "flat");
  assert.equal(startView("garbage", false), "iso");
});

test("scalas: overlapping tap areas split, each square tappable in its middle", () => {
  // a tower 1 high at (2, 0) stands over the middle of the empty square (1, 1) on screen
  const squares = [{ name: "back", u: 1, v: 1, h: 0 }, { name: "front", u: 2, v: 0, h: 1 },
    { name: "far", u: 4, v: 4, h: 0 }];
  const faces = squares.map(({ name, u, v, h }) => ({ name, polygon: face(u, v, h), centre: project(u + 0.5, v + 0.5, h) }));
  assert.ok(inside(faces[0].centre, faces[1].polygon), "the test's faces overlap");
  const areas = tapAreas(faces);
  for (const own of faces) {
    assert.ok(inside(own.centre, areas[own.name]), `${own.name} keeps its centre`);
    for (const other of faces) {
      if (other !== own) assert.ok(!inside(other.centre, areas[own.name]), `${own.name} leaves ${other.name}'s centre`);
    }
  }
  assert.deepEqual(areas.far, faces[2].polygon, "a face nothing overlaps keeps its whole area");
});
