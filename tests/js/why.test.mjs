// "Why not here" (static/js/why.js): which taps ask the server, and what they ask.
import assert from "node:assert/strict";
import { test } from "node:test";

import { classify, separator } from "../../static/js/why.js";

const STAIRS = { a1: { b2: "a1-b2", a2: "a1-a2" }, c1: { d2: "c1-d2" } };
const TOWN = { P3: { a1: "P3@a1", b1: "P3@b1" }, E2: { a1: "E2@a1" } };
const SCALAS = { c3: "c3", d3: "d3" };

test("why: legal taps ask nothing and keep the piece or card picked up", () => {
  assert.deepEqual(classify(STAIRS, null, "a1"), { ask: null, first: "a1" });
  assert.deepEqual(classify(STAIRS, "a1", "b2"), { ask: null, first: null });
  assert.deepEqual(classify(STAIRS, "a1", "c1"), { ask: null, first: "c1" });
  assert.deepEqual(classify(STAIRS, "a1", "a1"), { ask: null, first: null }); // put back down
  assert.deepEqual(classify(SCALAS, null, "c3"), { ask: null, first: null });
  assert.deepEqual(classify(TOWN, null, "P3"), { ask: null, first: "P3" });
});

test("why: an illegal tap asks about the move it would make, or the lone piece or slot", () => {
  assert.deepEqual(classify(STAIRS, null, "b1"), { ask: "b1", first: null });
  assert.deepEqual(classify(STAIRS, "a1", "c3"), { ask: "a1-c3", first: null });
  assert.deepEqual(classify(TOWN, "P3", "c4"), { ask: "P3@c4", first: null });
  assert.deepEqual(classify(TOWN, null, "c4"), { ask: "c4", first: null });
  assert.deepEqual(classify(SCALAS, null, "a1"), { ask: "a1", first: null });
  assert.deepEqual(classify({}, null, "e5"), { ask: "e5", first: null });
});

test("why: the separator comes from the server's own moves", () => {
  assert.equal(separator(TOWN, "P3"), "@");
  assert.equal(separator(STAIRS, "a1"), "-");
  assert.equal(separator(SCALAS, null), "-");
});
