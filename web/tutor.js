// The tutor's workspace: threads, the timeline of messages and cards (drills, exam
// questions with their lock countdowns, memos), the composer, and the progress panel. The
// page's shared parts (answer box, voice controls, speaker, result screen, session) come in
// `shell` from app.js.

import { answerBox } from "/answer-box.js";
import { $, confirmingButton, el, fill, notice, show } from "/dom.js";
import { getJson, link } from "/link.js";
import { tierBadge } from "/results.js";

function countdown(seconds) {
  if (seconds <= 0) return "unlocked";
  const h = Math.floor(seconds / 3600), m = Math.ceil((seconds % 3600) / 60);
  return h ? `${h} h ${m} min` : `${m} min`;
}

/** A lock's time left, kept current while the page is open. */
function lockTimer(seconds) {
  return el("span", { class: "countdown", "data-until": String(Date.now() + seconds * 1000) }, countdown(seconds));
}

function lockList(locks) {
  return locks.flatMap((lock, i) => [i ? ", " : "", `${lock.question_id} (`, lockTimer(lock.seconds_left), ")"]);
}

setInterval(() => {
  for (const timer of document.querySelectorAll(".countdown[data-until]")) {
    timer.textContent = countdown(Math.round((Number(timer.dataset.until) - Date.now()) / 1000));
  }
}, 15000);

export function tutorScreen(started, shell) {
  const { voiceControls, speaker, resultScreen } = shell;
  const catalog = shell.catalog;
  const state = { done: false, streaming: null, lastCard: null };
  const timeline = el("div", { class: "timeline", id: "timeline", "aria-live": "polite", role: "log" });
  const panel = el("aside", { class: "card collapsible", id: "snapshot", "data-open": "true", "aria-labelledby": "snapshot-title" },
    el("h2", { id: "snapshot-title" }, "Your progress"));
  const threads = el("nav", { class: "card threads collapsible", "data-open": "true", "aria-labelledby": "threads-title" },
    el("h2", { id: "threads-title" }, "Threads"), el("ul", { id: "thread-list" }));
  const box = answerBox("message", "Message the tutor", (text) => {
    timeline.append(el("div", { class: "msg student" }, text));
    return link.send({ type: "tutor.message", text });
  });
  const voice = catalog?.server?.voice ? voiceControls() : null;
  const toggle = el("button", { type: "button", class: "quiet panel-toggle", "aria-controls": "snapshot",
    onclick: () => panel.dataset.open = panel.dataset.open === "true" ? "false" : "true" }, "Progress");
  const end = confirmingButton("end", "End session", "Press again to end the session", () => link.send({ type: "session.end" }));
  show(el("div", { class: "row" }, el("h1", {}, "Tutor"), toggle),
    el("div", { class: "workspace" }, threads,
      el("section", { "aria-label": "Conversation" }, timeline,
        box.label, el("div", { class: "composer" }, box.input, box.button), box.mark, voice?.controls, el("div", { class: "row" }, end)),
      panel));
  fillThreads(shell);
  const act = (event) => () => link.send(event);
  const buttons = (...specs) => el("div", { class: "row" }, specs.map(([label, onclick, id]) =>
    el("button", { type: "button", class: "quiet", onclick, "data-action": id }, label)));
  const followUp = () => box.input.focus();

  function card(c) {
    const unitDrill = (unit) => act({ type: "tutor.request_drill", unit_id: unit });
    switch (c.kind) {
      case "socratic_question":
        return el("div", { class: "card" }, buttons(["Try a Drill", unitDrill(c.unit_id), "drill"], ["Ask follow-up", followUp, "follow-up"]));
      case "concept_card":
        return el("div", { class: "card" }, el("strong", {}, c.title),
          el("ul", {}, c.key_ideas.map((idea) => el("li", {}, idea))),
          c.worked_example ? el("p", {}, el("em", {}, "Worked example: "), c.worked_example) : null,
          buttons(["Try a Drill", unitDrill(c.unit_id), "drill"], ["Ask follow-up", followUp, "follow-up"]));
      case "prerequisite_nudge":
        return el("div", { class: "card" }, `First: ${c.prerequisite_title}.`,
          buttons(["Try a Drill", unitDrill(c.start_id), "drill"], ["Ask follow-up", followUp, "follow-up"]));
      case "drill": return drillCard(c);
      case "drill_result":
        // The feedback is the turn's own message, just above: the card gives the verdict.
        return el("div", { class: "card" }, el("strong", { class: c.correct ? "good" : "bad" }, c.correct ? "\u2713 Correct" : "\u2717 Not yet"),
          c.confusion ? el("p", { class: "muted" }, `What went wrong: ${c.confusion}`) : null,
          el("p", { class: "muted" }, `Streak: ${c.streak}`),
          buttons(["Continue", act({ type: "tutor.drill_continue" }), "continue"], ["Try another", act({ type: "tutor.try_another" }), "another"]));
      case "exam": return examCard(c);
      case "exam_result": return examResultCard(c);
      default: return null;
    }
  }

  function drillCard(c) {
    const body = el("div", { class: "card" }, el("p", {}, el("strong", {}, `Drill (${c.tier}): `), c.prompt));
    let chosen = null;
    const answer = c.options.length
      ? el("div", { class: "options", role: "radiogroup", "aria-label": "Options" }, c.options.map((text, i) => el("button", {
        type: "button", role: "radio", "aria-checked": "false",
        onclick: (e) => { chosen = i; e.target.parentElement.querySelectorAll("button").forEach((b, j) => b.setAttribute("aria-checked", String(j === i))); },
      }, text)))
      : el("textarea", { "aria-label": "Your answer", class: "drill-answer" });
    const check = () => {
      if (c.options.length) {
        if (chosen === null) { notice("Pick an option first."); return; }
        link.send({ type: "tutor.drill_check", drill_id: c.drill_id, index: chosen });
      } else {
        const text = answer.value.trim();
        if (!text) { notice("Write your answer first."); return; }
        link.send({ type: "tutor.drill_check", drill_id: c.drill_id, text });
      }
    };
    body.append(answer, buttons(["Check Answer", check, "check"], ["I'm stuck", act({ type: "tutor.stuck" }), "stuck"], ["Try another", act({ type: "tutor.try_another" }), "another"]));
    return body;
  }

  function examCard(c) {
    const body = el("div", { class: "card" }, el("p", {}, tierBadge(c.tier), " ", el("strong", {}, c.stem)));
    let chosen = null;
    body.append(el("div", { class: "options", role: "radiogroup", "aria-label": "Options" }, c.options.map((text, i) => el("button", {
      type: "button", role: "radio", "aria-checked": "false",
      onclick: (e) => { chosen = i; e.target.parentElement.querySelectorAll("button").forEach((b, j) => b.setAttribute("aria-checked", String(j === i))); },
    }, text))));
    if (c.locked.length) body.append(el("p", { class: "muted" }, "Locked: ", lockList(c.locked)));
    const submit = () => {
      if (chosen === null) { notice("Pick an option first."); return; }
      link.send({ type: "tutor.exam_submit", question_id: c.question_id, index: chosen });
    };
    body.append(buttons(["Submit", submit, "submit"], ["View Memo", act({ type: "tutor.memo_viewed", question_id: c.question_id }), "memo"]));
    return body;
  }

  function examResultCard(c) {
    const memo = el("p", { class: "muted", hidden: true }, c.memo);
    const view = () => { memo.hidden = false; if (!c.correct) link.send({ type: "tutor.memo_viewed", question_id: c.question_id }); };
    return el("div", { class: "card" },
      el("strong", { class: c.correct ? "good" : "bad" }, c.correct ? "Passed. " : "Not this time. "),
      c.tier_earned ? el("span", {}, "Tier earned: ", tierBadge(c.tier_earned)) : null,
      c.locked_seconds ? el("p", { class: "muted" }, "This question is locked for ", lockTimer(c.locked_seconds), ".") : null,
      memo, buttons(["View Memo", view, "memo"], ["Continue", act({ type: "tutor.exam_continue" }), "continue"]));
  }

  /** The progress panel, from the server's snapshot (this session's drills included, so a
   * device that resumes shows the same). */
  function drawSnapshot(s) {
    const { checked, right } = s.drills ?? { checked: 0, right: 0 };
    fill(panel, el("h2", { id: "snapshot-title" }, "Your progress"),
      el("p", {}, "Focus: ", el("strong", {}, s.focus_title), " ", tierBadge(s.focus_tier)),
      checked ? el("p", { id: "drill-tally" }, `Drills this session: ${right} of ${checked} right, streak ${s.focus_drill_streak}`) : null,
      s.prerequisite_nudge ? el("p", { class: "warn" }, `Do first: ${s.prerequisite_nudge}`) : null,
      s.revisit.length ? el("p", {}, `Revisit: ${s.revisit.join(", ")}${s.revisit_more ? ` and ${s.revisit_more} more` : ""}`) : null,
      el("table", {}, el("tbody", {}, ["none", "bronze", "silver", "gold"].map((tier) =>
        el("tr", {}, el("td", {}, tierBadge(tier)), el("td", {}, String(s.counts[tier])))))),
      s.locks.length ? el("p", { class: "muted" }, "Locked: ", lockList(s.locks)) : null);
  }

  function disableOld() {
    state.lastCard?.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }

  return {
    get done() { return state.done; },
    leave() { voice?.mic.stop(); },
    refused(_event, refused) {
      box.restore(refused);
    },
    event(event) {
      if (event.type === "tutor.delta" || event.type === "tutor.turn") {
        state.checking?.remove();
        state.checking = null;
      }
      if (event.type === "answer.assessing") {
        // A model examiner is judging a drill's answer; its tutor.turn replaces this.
        state.checking?.remove();
        state.checking = el("div", { class: "msg muted", id: "checking" }, "Checking your answer…");
        timeline.append(state.checking);
      } else if (event.type === "tutor.delta") {
        if (!state.streaming || state.streaming.dataset.turn !== String(event.turn)) {
          // Hidden from screen readers while it streams (a log would read each delta); the
          // whole turn replaces it, and is announced once.
          state.streaming = el("div", { class: "msg streaming", "data-turn": String(event.turn), "aria-hidden": "true" });
          timeline.append(state.streaming);
        }
        state.streaming.textContent += event.text;
      } else if (event.type === "tutor.turn") {
        state.streaming?.remove();
        state.streaming = null;
        disableOld();
        for (const message of event.messages) {
          const node = el("div", { class: "msg", "data-action": event.action }, el("p", {}, message.text));
          if (message.card) {
            const shown = card(message.card);
            if (shown) { node.append(shown); state.lastCard = node; }
          }
          timeline.append(node);
          speaker.say(message.text);
        }
        drawSnapshot(event.snapshot);
        timeline.lastElementChild?.scrollIntoView({ block: "nearest" });
      } else if (event.type === "transcript.final") {
        timeline.append(el("div", { class: "msg student" }, event.text));
      } else if (event.type === "session.completed") {
        state.done = true;
        this.leave();
        resultScreen(event.session_id, "tutor", event.result);
      }
    },
  };
}

async function fillThreads({ session, resume }) {
  const list = $("#thread-list");
  if (!list) return;
  try {
    const { sessions } = await getJson("/v1/sessions");
    list.replaceChildren(...sessions.filter((s) => s.mode === "tutor" && (s.status === "paused" || s.status === "active"))
      .map((s) => el("li", {}, el("button", {
        type: "button", "aria-current": s.session_id === session.id ? "true" : null,
        onclick: () => { if (s.session_id !== session.id) resume(s.session_id); },
      }, s.title ?? s.session_id.slice(0, 8)))));
  } catch {
    list.replaceChildren(el("li", { class: "muted" }, "Threads could not be read."));
  }
}
