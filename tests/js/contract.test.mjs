// The renderer contract (static/js/kit/boards.js) is checked by TypeScript: `make test` runs
// `tsc --noEmit -p .` over static/, and these tests show that the check bites — tsc rejects a
// renderer that breaks the contract — and that every game's renderer asks to be checked.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;
const FIXTURES = "tests/js/fixtures/contract";
const DECLARATION = '@typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked';
const NO_TSC = existsSync(TSC) ? false : "TypeScript is not installed: run `npm ci` (make test does)";

/** tsc's errors for the fixture renderers: {case name: [error lines]}, and its exit status. */
function checkFixtures() {
  const run = spawnSync(process.execPath, [TSC, "--noEmit", "-p", FIXTURES], { cwd: ROOT, encoding: "utf8" });
  const errors = {};
  for (const line of run.stdout.split("\n")) {
    const found = line.match(/^tests\/js\/fixtures\/contract\/([\w-]+)\/board\.js\((\d+),\d+\): error (TS\d+)/);
    if (found) (errors[found[1]] ??= []).push({ line: Number(found[2]), code: found[3] });
  }
  return { status: run.status, errors, output: run.stdout + run.stderr };
}

test("tsc rejects each renderer that breaks the contract, and accepts the one that keeps it", { skip: NO_TSC }, () => {
  const { status, errors, output } = checkFixtures();
  assert.notEqual(status, 0, output);
  const cases = readdirSync(`${ROOT}${FIXTURES}`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.ok(cases.includes("good") && cases.length >= 5, `fixture cases: ${cases}`);
  for (const name of cases.filter((c) => c !== "good")) {
    // reported where the renderer declares what it implements (line 2 of each fixture)
    assert.ok(errors[name]?.some((error) => error.line === 2), `${name} passed tsc:\n${output}`);
  }
  assert.equal(errors.good, undefined, output);
});

test("every game's renderer declares that it implements the contract", () => {
  const games = readdirSync(`${ROOT}static/games`, { withFileTypes: true }).filter((d) => d.isDirectory());
  assert.ok(games.length >= 5);
  for (const game of games) {
    const source = readFileSync(`${ROOT}static/games/${game.name}/board.js`, "utf8");
    assert.ok(source.startsWith("// @ts-check\n"), `${game.name}/board.js is not type-checked`);
    assert.ok(source.includes(DECLARATION), `${game.name}/board.js does not declare the renderer contract`);
  }
});

test("every static JS file is type-checked", () => {
  const unchecked = [];
  const walk = (dir) => {
    for (const entry of readdirSync(`${ROOT}${dir}`, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".js") && !readFileSync(`${ROOT}${path}`, "utf8").startsWith("// @ts-check\n")) unchecked.push(path);
    }
  };
  walk("static");
  assert.deepEqual(unchecked, []);
});
