// The typed answer box every screen uses: held while the connection is down, given back
// when the server refuses what was sent.

import { el } from "/dom.js";
import { link } from "/link.js";

/** A typed answer box. A sent answer leaves the box once the server has it; one sent while
 * the connection is down stays in the box, marked, until it has gone and been acked (a second
 * one cannot follow it meanwhile, so it cannot land on the next question). A refused answer's
 * text comes back to be edited. */
export function answerBox(id, label, onSend) {
  const mark = el("p", { class: "queued", id: `${id}-queued`, "aria-live": "polite" });
  const input = el("textarea", { id, "aria-describedby": mark.id });
  const labelled = el("label", { for: id, id: `${id}-label` }, label);
  const button = el("button", { type: "button", id: `${id}-send` }, "Send");
  let sent = null; // { eventId, text, held } until acked or refused; held: kept in the box
  const hold = (holding) => {
    input.readOnly = holding;
    button.disabled = holding;
    mark.textContent = holding ? "Not sent yet: it will be sent when you are back." : "";
  };
  const send = () => {
    const text = input.value.trim();
    if (!text || sent?.held) return;
    sent = { eventId: onSend(text), text, held: !link.ready() };
    if (sent.held) hold(true); else input.value = "";
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); } });
  button.addEventListener("click", send);
  const forget = () => { if (sent?.held) { hold(false); input.value = ""; } sent = null; };
  // The box watches the connection while it is on the page: an answer the server has not
  // acked when the connection drops comes back into the box, marked.
  const stopWatching = link.watch((ready) => {
    if (!input.isConnected) { stopWatching(); stopAcks(); return; }
    if (ready || !sent || sent.held || !link.pending.has(sent.eventId) || input.value) return;
    sent.held = true;
    input.value = sent.text;
    hold(true);
  });
  const stopAcks = link.on((event) => {
    if (!input.isConnected) { stopWatching(); stopAcks(); return; }
    if (event.type === "ack" && event.event_id === sent?.eventId) forget();
  });
  const restore = (refused) => {
    if (!refused || sent?.eventId !== refused.event_id) return;
    const { held, text } = sent;
    sent = null;
    hold(false);
    if (!held && !input.value) input.value = text;
  };
  return { input, button, mark, restore, label: labelled };
}
