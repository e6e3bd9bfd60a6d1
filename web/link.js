// The connection and who is signed in: the sign-in kept for this tab, JSON over HTTP with
// it, and the one WebSocket (`link`) that reconnects with back-off and resends every event
// not yet acknowledged (each carries an event_id, applied once by the server).

import { $, newId } from "/dom.js";

export const auth = {
  user: sessionStorage.getItem("viva.user"),
  token: sessionStorage.getItem("viva.token"),
  query() {
    return this.token ? `access_token=${encodeURIComponent(this.token)}`
      : `user=${encodeURIComponent(this.user ?? "")}`;
  },
  signedIn() { return Boolean(this.token || this.user); },
  save(user, token) {
    this.user = user; this.token = token;
    if (user) sessionStorage.setItem("viva.user", user); else sessionStorage.removeItem("viva.user");
    if (token) sessionStorage.setItem("viva.token", token); else sessionStorage.removeItem("viva.token");
  },
};

export const deviceId = sessionStorage.getItem("viva.device") ?? newId("web");
sessionStorage.setItem("viva.device", deviceId);

export async function getJson(path) {
  const separator = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${separator}${auth.query()}`);
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.message ?? body.error ?? `${path}: HTTP ${response.status}`);
  }
  return response.json();
}


/** Whether the server refuses this sign-in (HTTP 401), as opposed to being unreachable. */
async function signInRefused() {
  try {
    const response = await fetch(`/v1/sessions?${auth.query()}`);
    return response.status === 401;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- the connection

export class Link {
  constructor() {
    this.socket = null;
    this.pending = new Map(); // event_id → event, until acked or refused
    this.attempt = 0;
    this.wanted = false;
    this.handlers = new Set();
    this.watchers = new Set();
    this.onOpen = null;
    this.onAudio = null; // binary frames: the examiner's voice
  }

  open() {
    this.wanted = true;
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/v1/ws?${auth.query()}`);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.state("Connecting…");
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      this.attempt = 0;
      this.state("Connected");
      this.onOpen?.();
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", () => this.closed(socket, opened));
  }

  async closed(socket, opened) {
    if (socket !== this.socket) return;
    this.socket = null;
    if (!this.wanted) { this.state(""); return; }
    // Refused before it opened: a sign-in the server no longer takes (an expired token)
    // is not retried; it asks for a new one.
    if (!opened && await signInRefused()) {
      this.wanted = false;
      this.state("");
      this.onSignInRefused?.();
      return;
    }
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    this.state(`Reconnecting in ${Math.round(delay / 100) / 10} s…`);
    setTimeout(() => { if (this.wanted) this.open(); }, delay);
  }

  close() {
    this.wanted = false;
    this.socket?.close(1000);
    this.pending.clear();
  }

  state(text) {
    $("#link-state").textContent = text;
    for (const watcher of this.watchers) watcher(this.ready());
  }

  /** Calls `watcher(ready)` at each change of the connection's state. */
  watch(watcher) { this.watchers.add(watcher); return () => this.watchers.delete(watcher); }

  ready() { return this.socket?.readyState === WebSocket.OPEN; }

  /** Sends a client event; one that changes a session is kept until acked. */
  send(event, { track = true } = {}) {
    if (track) {
      event.event_id ??= newId("e");
      this.pending.set(event.event_id, event);
    }
    if (this.ready()) this.socket.send(JSON.stringify(event));
    return event.event_id;
  }

  /** Resends what was not acked, in order (the server applies each event id once). */
  resendPending(except = () => false) {
    for (const event of this.pending.values()) {
      if (!except(event) && this.ready()) this.socket.send(JSON.stringify(event));
    }
  }

  /** Sends a frame of audio; false when it could not go (no connection, or one so slow
   * that its buffer is full), so the speaker can be told. */
  sendAudio(buffer) {
    if (!this.ready() || this.socket.bufferedAmount >= 256 * 1024) return false;
    this.socket.send(buffer);
    return true;
  }

  receive(data) {
    if (typeof data !== "string") { this.onAudio?.(data); return; }
    let event;
    try { event = JSON.parse(data); } catch { return; }
    if (event.type === "ack") this.pending.delete(event.event_id);
    let refused = null;
    if (event.type === "error" && event.event_id) {
      refused = this.pending.get(event.event_id) ?? null;
      this.pending.delete(event.event_id);
    }
    for (const handler of this.handlers) handler(event, refused);
  }

  on(handler) { this.handlers.add(handler); return () => this.handlers.delete(handler); }
}

export const link = new Link();
