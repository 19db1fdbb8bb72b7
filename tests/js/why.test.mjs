// "Why not here" (static/js/why.js): which taps ask the server, and what they ask.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { classify, separator, tappedName, tapSelector } from "../../static/js/why.js";

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

test("why: a tap's name comes from the board's own attributes, the first one it carries", () => {
  const hit = { getAttribute: (name) => ({ "data-slot": "c4", "data-offer": "" })[name] ?? null };
  const element = { closest: (selector) => (selector.split(",").includes("[data-slot]") ? hit : null) };
  assert.equal(tapSelector(["slot", "offer"]), "[data-slot],[data-offer]");
  assert.equal(tappedName(element, ["offer", "slot"]), "c4");
  assert.equal(tappedName(element, ["square"]), null, "another board's attribute names nothing");
  assert.equal(tappedName(element, []), null, "a board that declares none gives no reasons");
});

test("why: each renderer declares the attributes its board sets, and why.js names none", () => {
  const root = new URL("../../static/", import.meta.url);
  const why = readFileSync(new URL("js/why.js", root), "utf8");
  for (const game of readdirSync(new URL("games/", root))) {
    const folder = new URL(`games/${game}/`, root);
    const scripts = readdirSync(folder).filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(new URL(name, folder), "utf8")).join("\n");
    const declared = /export const tapAttributes = (\[[^\]]*\]);/.exec(readFileSync(new URL("board.js", folder), "utf8"));
    if (game === "generic") { assert.equal(declared, null, "the generic board has buttons only"); continue; }
    assert.ok(declared, `${game}/board.js declares tapAttributes`);
    for (const name of JSON.parse(declared[1])) {
      assert.ok(scripts.includes(`"data-${name}"`) || scripts.includes(`dataset.${name} =`),
        `${game}'s board sets data-${name}`);
      assert.ok(!why.includes(`"${name}"`), `why.js does not name ${game}'s ${name}`);
    }
  }
});
