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
