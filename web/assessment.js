// An assessment's screen: the item's stem and options (click, keys A-D or 1-4, or say
// "option B"), time remaining, skip, and in learning mode the feedback on the last answer.
// The page's shared parts come in `shell`.

import { answerBox } from "/answer-box.js";
import { $, confirmingButton, el, show } from "/dom.js";
import { link } from "/link.js";

export function assessmentScreen(_started, shell) {
  const { voiceControls, speaker, resultScreen } = shell;
  const catalog = shell.catalog;
  const state = { question: null, options: [], chosen: null, deadline: null, timer: null, done: false };
  const header = el("p", { class: "progress", id: "progress", "aria-live": "polite" });
  const clock = el("p", { class: "muted", id: "time-left", "aria-live": "off" });
  const stem = el("p", { class: "question", id: "question" });
  const options = el("div", { class: "options", id: "options", role: "group", "aria-label": "Options" });
  const feedback = el("div", { id: "feedback", "aria-live": "polite" });
  const box = answerBox("answer", "Your answer", (text) => link.send({ type: "answer.text", text }));
  const typed = el("div", { id: "typed" }, box.label, el("div", { class: "composer" }, box.input, box.button), box.mark);
  const voice = catalog?.server?.voice ? voiceControls() : null;
  const skip = el("button", { type: "button", class: "quiet", id: "skip", onclick: () => link.send({ type: "answer.skip" }) }, "Skip");
  const end = confirmingButton("end", "Finish", "Press again: unanswered items count as not attempted", () => link.send({ type: "session.end" }));
  const choose = (index) => {
    if (state.chosen !== null) return;
    state.chosen = index;
    options.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-pressed", String(i === index)));
    link.send({ type: "answer.choice", index });
  };
  const onKey = (e) => {
    if (!state.options.length || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
    const letter = e.key.toLowerCase().charCodeAt(0) - 97;
    const digit = Number(e.key) - 1;
    const index = e.key.length === 1 && letter >= 0 && letter < state.options.length ? letter
      : digit >= 0 && digit < state.options.length ? digit : null;
    if (index !== null) { e.preventDefault(); choose(index); }
  };
  document.addEventListener("keydown", onKey);
  const tick = () => {
    if (state.deadline === null) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round((state.deadline - Date.now()) / 1000));
    clock.textContent = `Time remaining ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  };
  state.timer = setInterval(tick, 1000);
  show(el("h1", {}, "Assessment"), header, clock,
    el("section", { class: "card", "aria-label": "Item" }, stem, options, typed, voice?.controls),
    feedback, el("div", { class: "row" }, skip, end));
  return {
    get done() { return state.done; },
    leave() { clearInterval(state.timer); document.removeEventListener("keydown", onKey); voice?.mic.stop(); },
    refused(event, refused) {
      box.restore(refused);
      if (refused?.type === "answer.choice") { state.chosen = null; options.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", "false")); }
    },
    event(event) {
      if (event.type === "question") {
        state.question = event.question_id;
        state.options = event.options ?? [];
        state.chosen = null;
        header.textContent = `Item ${event.number}${event.total ? ` of ${event.total}` : ""}`;
        if (event.time_remaining_seconds !== undefined && event.time_remaining_seconds !== null) {
          state.deadline = Date.now() + event.time_remaining_seconds * 1000;
        }
        tick();
        stem.textContent = event.text;
        options.replaceChildren(...state.options.map((text, i) => el("button", {
          type: "button", "aria-pressed": "false", "aria-keyshortcuts": String.fromCharCode(65 + i),
          onclick: () => choose(i),
        }, `${String.fromCharCode(65 + i)}. ${text}`)));
        typed.hidden = state.options.length > 0;
        speaker.say(event.text);
      } else if (event.type === "assessment") {
        feedback.replaceChildren(event.recorded
          ? el("p", { class: "muted", id: "assessment" }, "Answer recorded.")
          : el("div", { class: "card", id: "assessment" }, el("span", { class: "muted" }, "Your last answer: "),
            el("strong", { class: `score-${event.score}` }, event.score === "satisfactory" ? "Right." : "Not quite."), " ",
            event.feedback ?? "", event.correct_answer ? el("p", {}, `Answer: ${event.correct_answer}`) : null));
      } else if (event.type === "answer.unclear") {
        feedback.replaceChildren(el("div", { class: "card warn" }, event.message));
      } else if (event.type === "session.completed") {
        state.done = true;
        this.leave();
        resultScreen(event.session_id, "assessment", event.result);
      }
    },
  };
}
