// Moves over the socket with a REST fallback, and typed errors in the page's language.
import assert from "node:assert/strict";
import { test } from "node:test";

import { errorText, useCatalog } from "../../static/js/kit/i18n.js";
import { SocketError } from "../../static/js/kit/socket.js";
import { sendMove } from "../../static/js/moves.js";

function fakes({ open = true, answer } = {}) {
  const sent = [];
  const posted = [];
  const socket = {
    isOpen: open,
    async request(message) { sent.push(message); return answer(message); },
  };
  const rest = async (move, ply) => { posted.push({ move, ply }); return { ply: ply + 1 }; };
  return { socket, rest, sent, posted };
}

test("an open socket carries the move and REST is not used", async () => {
  const { socket, rest, sent, posted } = fakes({ answer: () => ({ type: "ack", ply: 5 }) });
  assert.deepEqual(await sendMove({ socket, rest, move: "a1-b2", ply: 4 }), { ack: { type: "ack", ply: 5 } });
  assert.deepEqual(sent, [{ type: "move", move: "a1-b2", ply: 4 }]);
  assert.deepEqual(posted, []);
});

test("a closed socket, or one that never answers, falls back to REST", async () => {
  for (const setup of [{ open: false, answer: () => ({}) },
    { answer: () => { throw new SocketError("no_answer"); } },
    { answer: () => { throw new SocketError("closed"); } }]) {
    const { socket, rest, posted } = fakes(setup);
    assert.deepEqual(await sendMove({ socket, rest, move: "c3", ply: 2 }), { match: { ply: 3 } });
    assert.deepEqual(posted, [{ move: "c3", ply: 2 }]);
  }
  const { socket, rest, posted } = fakes({ answer: () => ({}) });
  await sendMove({ socket, useSocket: false, rest, move: "c3", ply: 2 });
  assert.equal(posted.length, 1, "socket moves can be switched off");
});

test("the server's typed error is the answer: no second try over REST", async () => {
  const { socket, rest, posted } = fakes({ answer: () => { throw new SocketError("stale_ply", "The game moved on."); } });
  await assert.rejects(sendMove({ socket, rest, move: "c3", ply: 2 }), (error) => error.code === "stale_ply");
  assert.deepEqual(posted, []);
});

test("typed errors read in the page's language", () => {
  const error = new SocketError("not_your_turn", "It is not your turn (seat 1 moves).");
  useCatalog({}, "en");
  assert.equal(errorText(error), "It is not your turn (seat 1 moves).", "English: the server's own words");
  useCatalog({ "It is not your turn.": "あなたの番ではありません。" }, "ja");
  assert.equal(errorText(error), "あなたの番ではありません。");
  assert.equal(errorText(new SocketError("brand_new_code", "Something new.")), "Something new.");
});
