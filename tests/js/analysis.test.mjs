// The analysis graph's pure parts: which ply a click points at, one value series per seat.
import assert from "node:assert/strict";
import { test } from "node:test";

import { plyAt, seatSeries } from "../../static/js/analysis-graph.js";

test("a click across the graph points at the nearest ply, within the game", () => {
  assert.equal(plyAt(0, 33), 0);
  assert.equal(plyAt(1, 33), 32);
  assert.equal(plyAt(0.5, 33), 16);
  assert.equal(plyAt(-0.2, 33), 0);
  assert.equal(plyAt(1.5, 33), 32);
  assert.equal(plyAt(0.7, 1), 0);
});

test("each seat gets its value after every ply", () => {
  const result = { positions: [{ values: [0.5, 0.5] }, { values: [0.6, 0.4] }, { values: [1, 0] }] };
  assert.deepEqual(seatSeries(result), [[0.5, 0.6, 1], [0.5, 0.4, 0]]);
});

test("a move on a known position sends its signed state, anything else the move list", async () => {
  const { boardBody, stateRefused } = await import("../../static/js/analysis-request.js");
  const start = { game: "stairs", players: 2 };
  const known = { moves: ["a1-b1", "c6-d5"], state: "body.mac" };
  assert.deepEqual(boardBody(start, ["a1-b1", "c6-d5"], "b2-c3", known),
                   { game: "stairs", state: "body.mac", move: "b2-c3" });
  assert.deepEqual(boardBody({ match: "abc" }, ["a1-b1", "c6-d5"], "b2-c3", known),
                   { state: "body.mac", move: "b2-c3" });
  assert.deepEqual(boardBody(start, ["a1-b1"], undefined, known),
                   { game: "stairs", players: 2, moves: ["a1-b1"] });
  assert.deepEqual(boardBody(start, ["a1-b1"], "c6-d5", undefined),
                   { game: "stairs", players: 2, moves: ["a1-b1"], move: "c6-d5" });
  // a forced move made the known line longer than asked: the list is the safe way
  assert.deepEqual(boardBody(start, ["a1-b1"], "x", known).moves, ["a1-b1"]);
  assert.equal(stateRefused({ code: "state_expired" }), true);
  assert.equal(stateRefused({ code: "illegal_move" }), false);
});
