// @ts-check
// The one reconnecting websocket of every page (match, lobby, watch). No DOM access: the browser's
// WebSocket and timers are the defaults and can be replaced (tests/js drive it with fakes).
//   - reconnects after any close, with exponential backoff and jitter (backoff.js), until stop();
//     a close with 1012 (the server instance is restarting) reconnects after 200–1500 ms at
//     random, so the sockets spread over the other instances, and reports onStatus(false,
//     "restart"): a planned move the page need not show as a lost connection;
//   - after a reconnection it asks the server to resynchronise: {"type": "sync", "ply": N};
//   - pings every `pingMs`; with `pongTimeoutMs`, a connection silent for longer is dropped and
//     reopened (a phone that changed network keeps a dead socket open otherwise);
//   - request(message) tags a message with an id and resolves with the server's {"type": "ack"} for
//     it, or rejects with its {"type": "error", code, message} (used for moves over the socket).
import { DEFAULT_POLICY, reconnectDelay, RESTART_CLOSE_CODE } from "./backoff.js";

/**
 * A server message: a `type` and the type's own fields.
 * @typedef {{type: string, [field: string]: any}} SocketMessage
 *
 * The timer functions the socket uses (the browser's by default; tests pass fakes).
 * @typedef {object} Timers
 * @property {(fn: () => void, ms: number) => any} setTimeout
 * @property {(id: any) => void} clearTimeout
 * @property {(fn: () => void, ms: number) => any} setInterval
 * @property {(id: any) => void} clearInterval
 *
 * What the socket needs of a WebSocket (the browser's; tests pass a fake class).
 * @typedef {Pick<WebSocket, "readyState" | "send" | "close" | "addEventListener">} SocketLike
 *
 * @typedef {{resolve: (ack: SocketMessage) => void, reject: (error: SocketError) => void, timer: any}} Waiting
 */

/** ws(s)://host/path for a same-site path.
 * @param {string} path
 * @param {{protocol: string, host: string}} [where] */
export function socketUrl(path, where = globalThis.location) {
  const scheme = where.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${where.host}${path}`;
}

export class SocketError extends Error {
  /** @param {string} code @param {string} [message] */
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class LiveSocket {
  /**
   * @param {string} url  ws:// or wss:// URL
   * @param {object} options
   * @param {(message: SocketMessage) => void} [options.onMessage]  every parsed message (acks included)
   * @param {(live: boolean, why?: "restart") => void} [options.onStatus]  true when (re)connected,
   *   false when lost (with "restart" when the server said it is restarting)
   * @param {(() => (number|null)) | null} [options.ply]  the ply the page shows, for resync after a reconnect
   * @param {Partial<import("./backoff.js").BackoffPolicy>} [options.policy]  reconnection delays
   * @param {number} [options.pingMs]  how often to ping
   * @param {number | null} [options.pongTimeoutMs]  drop a connection silent for pingMs + this
   * @param {new (url: string) => SocketLike} [options.WebSocketImpl]
   * @param {Timers} [options.timers]
   * @param {() => number} [options.random]
   * @param {() => number} [options.now]
   */
  constructor(url, { onMessage = () => {}, onStatus = () => {}, ply = null, policy = DEFAULT_POLICY,
    pingMs = 25000, pongTimeoutMs = null, WebSocketImpl = globalThis.WebSocket, timers = globalThis,
    random = Math.random, now = () => Date.now() } = {}) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ply = ply;
    this.policy = policy;
    this.pingMs = pingMs;
    this.pongTimeoutMs = pongTimeoutMs;
    this.WebSocketImpl = WebSocketImpl;
    this.timers = timers;
    this.random = random;
    this.now = now;
    this.attempt = 0;
    this.opens = 0;
    this.stopped = true;
    /** @type {SocketLike | null} */
    this.socket = null;
    /** @type {Map<string, Waiting>} request id -> its promise's settlers and timer */
    this.pending = new Map();
    this.nextId = 1;
    this.lastHeard = 0;
    /** @type {any} */
    this.retryTimer = undefined;
    /** @type {any} */
    this.pingTimer = undefined;
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === 1;
  }

  start() {
    this.stopped = false;
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    this.timers.clearTimeout(this.retryTimer);
    this.timers.clearInterval(this.pingTimer);
    this.socket?.close();
    this.failPending("closed");
  }

  connect() {
    const socket = new this.WebSocketImpl(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => this.opened(socket));
    socket.addEventListener("message", (event) => this.received(socket, event));
    socket.addEventListener("close", (event) => this.closed(socket, event));
  }

  /** @param {SocketLike} socket */
  opened(socket) {
    if (socket !== this.socket) return;
    this.attempt = 0;
    this.opens += 1;
    this.lastHeard = this.now();
    if (this.opens > 1 && this.ply) this.send({ type: "sync", ply: this.ply() });
    this.timers.clearInterval(this.pingTimer);
    this.pingTimer = this.timers.setInterval(() => this.ping(), this.pingMs);
    this.onStatus(true);
  }

  ping() {
    if (this.pongTimeoutMs !== null && this.now() - this.lastHeard > this.pingMs + this.pongTimeoutMs) {
      this.socket?.close(); // silent for too long: the close handler reconnects
      return;
    }
    this.send({ type: "ping" });
  }

  /** @param {SocketLike} socket @param {{data: string}} event */
  received(socket, event) {
    if (socket !== this.socket) return;
    this.lastHeard = this.now();
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    const waiting = message.id !== undefined && message.id !== null ? this.pending.get(message.id) : null;
    if (waiting && (message.type === "ack" || message.type === "error")) {
      this.pending.delete(message.id);
      this.timers.clearTimeout(waiting.timer);
      if (message.type === "ack") waiting.resolve(message);
      else waiting.reject(new SocketError(message.code, message.message));
    }
    this.onMessage(message);
  }

  /** @param {SocketLike} socket @param {{code?: number}} [event] */
  closed(socket, event) {
    if (socket !== this.socket) return;
    this.timers.clearInterval(this.pingTimer);
    this.socket = null;
    this.failPending("closed");
    const code = event?.code;
    if (code === RESTART_CLOSE_CODE) {
      this.attempt = 0;
      this.onStatus(false, "restart");
    } else {
      this.onStatus(false);
    }
    if (this.stopped) return;
    const delay = reconnectDelay(code, this.attempt, this.policy, this.random);
    this.attempt += 1;
    this.retryTimer = this.timers.setTimeout(() => { if (!this.stopped) this.connect(); }, delay);
  }

  /** Send now if connected; false if not (the caller falls back, e.g. to REST).
   * @param {SocketMessage} message */
  send(message) {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send `message` with a fresh id; resolves with the ack, rejects with a SocketError (the
   * server's typed error, or code "closed" / "no_answer" when the socket could not tell).
   * @param {SocketMessage} message
   * @returns {Promise<SocketMessage>} */
  request(message, timeoutMs = 8000) {
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...message, id })) { reject(new SocketError("closed")); return; }
      const timer = this.timers.setTimeout(() => {
        this.pending.delete(id);
        reject(new SocketError("no_answer"));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  /** @param {string} code */
  failPending(code) {
    for (const [id, waiting] of this.pending) {
      this.timers.clearTimeout(waiting.timer);
      waiting.reject(new SocketError(code));
      this.pending.delete(id);
    }
  }
}
