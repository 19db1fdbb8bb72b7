// The reconnecting socket, driven by a fake WebSocket and fake timers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { backoffDelay, DEFAULT_POLICY, reconnectDelay, RESTART_CLOSE_CODE } from "../../static/js/kit/backoff.js";
import { LiveSocket, socketUrl } from "../../static/js/kit/socket.js";

class FakeTimers {
  constructor() { this.now = 0; this.queue = []; this.next = 1; }
  setTimeout(fn, ms) { const id = this.next++; this.queue.push({ id, at: this.now + ms, fn }); return id; }
  setInterval(fn, ms) { const id = this.next++; this.queue.push({ id, at: this.now + ms, fn, every: ms }); return id; }
  clearTimeout(id) { this.queue = this.queue.filter((job) => job.id !== id); }
  clearInterval(id) { this.clearTimeout(id); }
  advance(ms) {
    const until = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const job = this.queue[0];
      if (!job || job.at > until) break;
      this.now = job.at;
      if (job.every) job.at += job.every; else this.queue.shift();
      job.fn();
    }
    this.now = until;
  }
}

function fakeSocketClass(log) {
  return class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.handlers = {}; log.push(this); }
    addEventListener(kind, fn) { (this.handlers[kind] ??= []).push(fn); }
    emit(kind, event = {}) { for (const fn of this.handlers[kind] ?? []) fn(event); }
    open() { this.readyState = 1; this.emit("open"); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close(code) { if (this.readyState === 3) return; this.readyState = 3; this.emit("close", { code }); }
    receive(message) { this.emit("message", { data: JSON.stringify(message) }); }
  };
}

function setup(options = {}) {
  const sockets = [];
  const timers = new FakeTimers();
  const messages = [];
  const status = [];
  let ply = 7;
  const live = new LiveSocket("ws://x/ws", {
    WebSocketImpl: fakeSocketClass(sockets), timers, random: () => 0, now: () => timers.now,
    onMessage: (m) => messages.push(m), onStatus: (s) => status.push(s), ply: () => ply, ...options,
  }).start();
  return { live, sockets, timers, messages, status, setPly: (n) => { ply = n; } };
}

test("socketUrl follows the page's scheme", () => {
  assert.equal(socketUrl("/api/ws", { protocol: "https:", host: "h" }), "wss://h/api/ws");
  assert.equal(socketUrl("/api/ws", { protocol: "http:", host: "h:1" }), "ws://h:1/api/ws");
});

test("reconnects with growing delays and resyncs by ply after reconnecting", () => {
  const { sockets, timers, status, setPly } = setup({ policy: { base: 100, factor: 2, max: 1000, jitter: 0.5 } });
  sockets[0].open();
  assert.deepEqual(sockets[0].sent, [], "no sync on the first connection: the server sends the state");
  sockets[0].close();
  timers.advance(49);
  assert.equal(sockets.length, 1, "waits (base × (1 − jitter)) before retrying");
  timers.advance(1);
  assert.equal(sockets.length, 2);
  sockets[1].close(); // failed attempt: the next delay doubles
  timers.advance(99);
  assert.equal(sockets.length, 2);
  timers.advance(1);
  assert.equal(sockets.length, 3);
  setPly(12);
  sockets[2].open();
  assert.deepEqual(sockets[2].sent, [{ type: "sync", ply: 12 }]);
  assert.deepEqual(status, [true, false, false, true]);
  sockets[2].close(); // after a successful open the delays start again from the base
  timers.advance(50);
  assert.equal(sockets.length, 4);
});

test("pings, and drops a connection that went silent", () => {
  const { sockets, timers } = setup({ pingMs: 1000, pongTimeoutMs: 500 });
  sockets[0].open();
  timers.advance(1000);
  assert.deepEqual(sockets[0].sent, [{ type: "ping" }]);
  sockets[0].receive({ type: "pong" });
  timers.advance(1000);
  assert.equal(sockets[0].readyState, 1, "alive: it answered");
  timers.advance(1000); // 2000 ms without a word > ping + timeout
  assert.equal(sockets[0].readyState, 3);
  timers.advance(1000);
  assert.equal(sockets.length, 2, "and reconnects");
});

test("stop() closes for good", () => {
  const { live, sockets, timers } = setup();
  sockets[0].open();
  live.stop();
  timers.advance(60000);
  assert.equal(sockets.length, 1);
});

test("request: resolved by the ack with its id, rejected by its typed error", async () => {
  const { live, sockets, messages } = setup();
  sockets[0].open();
  const first = live.request({ type: "move", move: "a1-b2", ply: 3 });
  const second = live.request({ type: "move", move: "c3", ply: 3 });
  const [sentFirst, sentSecond] = sockets[0].sent;
  assert.equal(sentFirst.move, "a1-b2");
  assert.notEqual(sentFirst.id, sentSecond.id);
  sockets[0].receive({ type: "error", id: sentSecond.id, code: "stale_ply", message: "moved on" });
  sockets[0].receive({ type: "ack", id: sentFirst.id, ply: 4 });
  assert.deepEqual(await first, { type: "ack", id: sentFirst.id, ply: 4 });
  await assert.rejects(second, (error) => error.code === "stale_ply" && error.message === "moved on");
  assert.equal(messages.length, 2, "acks and errors still reach onMessage");
});

test("request: fails at once when closed, and on silence or a lost connection", async () => {
  const { live, sockets, timers } = setup();
  await assert.rejects(live.request({ type: "move" }), (e) => e.code === "closed");
  sockets[0].open();
  const silent = live.request({ type: "move" }, 100);
  timers.advance(100);
  await assert.rejects(silent, (e) => e.code === "no_answer");
  const cut = live.request({ type: "move" });
  sockets[0].close();
  await assert.rejects(cut, (e) => e.code === "closed");
});

test("reconnectDelay: after 1012 a uniform 200–1500 ms whatever the attempt, else the backoff", () => {
  assert.equal(RESTART_CLOSE_CODE, 1012);
  assert.equal(reconnectDelay(1012, 0, DEFAULT_POLICY, () => 0), 200);
  assert.equal(reconnectDelay(1012, 9, DEFAULT_POLICY, () => 0.5), 850);
  assert.equal(reconnectDelay(1012, 0, DEFAULT_POLICY, () => 0.999999), 1500);
  for (const code of [1006, 1000, 4401, undefined]) {
    assert.equal(reconnectDelay(code, 3, DEFAULT_POLICY, () => 0.25), backoffDelay(3, DEFAULT_POLICY, () => 0.25));
  }
});

test("reconnectDelay spreads the clients of a restarted instance over the whole window", () => {
  let seed = 7;
  const random = () => { seed = (seed * 16807) % 2147483647; return (seed - 1) / 2147483646; };
  const delays = Array.from({ length: 1000 }, () => reconnectDelay(1012, 0, DEFAULT_POLICY, random));
  assert.ok(delays.every((ms) => ms >= 200 && ms <= 1500));
  const buckets = [0, 0, 0, 0];
  for (const ms of delays) buckets[Math.min(3, Math.floor((ms - 200) / 325))] += 1;
  assert.ok(buckets.every((n) => n > 150), `not spread: ${buckets}`);
});

test("a 1012 close reconnects after the restart delay, quietly, and resyncs", () => {
  const status = [];
  let ply = 5;
  const { sockets, timers } = setup({ random: () => 0.5, onStatus: (live, why) => status.push([live, why]),
    ply: () => ply });
  sockets[0].open();
  sockets[0].close(1012);
  timers.advance(849);
  assert.equal(sockets.length, 1, "waits 200 + 0.5 × 1300 ms");
  timers.advance(1);
  assert.equal(sockets.length, 2);
  ply = 9;
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, [{ type: "sync", ply: 9 }]);
  assert.deepEqual(status, [[true, undefined], [false, "restart"], [true, undefined]]);
});

test("a 1012 close after failed attempts does not wait the grown backoff", () => {
  const { sockets, timers } = setup({ random: () => 0, policy: { base: 1000, factor: 2, max: 60000, jitter: 0 } });
  sockets[0].close(); // never opened: attempts grow (1 s, 2 s, 4 s…)
  timers.advance(1000);
  sockets[1].close();
  timers.advance(2000);
  sockets[2].open();
  sockets[2].close(1012);
  timers.advance(200);
  assert.equal(sockets.length, 4, "the restart delay, not the 4th backoff step");
});

test("a move in flight when the server closes with 1012 is rejected as closed (the page plays it again)", async () => {
  const { live, sockets } = setup();
  sockets[0].open();
  const move = live.request({ type: "move", move: "a1-b2", ply: 3 });
  sockets[0].close(1012);
  await assert.rejects(move, (e) => e.code === "closed");
});
