// The oral exam's screen: the question as it streams, the voice controls and typed answer,
// each assessment under the question it assesses, progress and bonus, End exam. The page's
// shared parts (voice controls, speaker, result screen, speech status) come in `shell`.

import { answerBox } from "/answer-box.js";
import { $, announce, confirmingButton, el, show } from "/dom.js";
import { link } from "/link.js";
import { questionLabel, scoreMeaning, scoreWord } from "/words.js";

/** An exam's assessment, shown with the question it assesses: its label and words, what
 * was said, the score in words and what it means. */
function assessedCard(event, asked, said) {
  const label = asked?.label ?? "Your last answer";
  const heading = event.recorded ? `${label} \u2014 answer recorded`
    : `${label} \u2014 assessed: ${scoreWord(event.score)}`;
  const explanation = event.recorded ? "" : event.feedback || scoreMeaning(event.score);
  return el("div", { class: "card assessed", id: "assessment", role: "group", "aria-labelledby": "assessment-title" },
    el("h2", { id: "assessment-title" }, event.recorded ? heading
      : [`${label} \u2014 assessed: `, el("span", { class: `score-${event.score}` }, scoreWord(event.score))]),
    asked?.text ? el("p", { class: "muted asked" }, el("span", { class: "visually-hidden" }, "The question: "), `\u201c${asked.text}\u201d`) : null,
    said ? el("p", {}, `You said: ${said}`) : null,
    explanation ? el("p", { class: "explanation" }, explanation) : null,
    event.source_summary ? el("p", { class: "muted" }, event.source_summary) : null);
}

export function examScreen(started, shell) {
  const { voiceControls, speaker, resultScreen, showSpeech } = shell;
  const catalog = shell.catalog;
  const voice = catalog?.server?.voice;
  const state = { planned: started.plan?.planned_questions ?? started.progress?.planned_questions ?? 0,
    bonus: started.progress?.bonus_used ?? 0, bonusMax: started.plan?.bonus_max, asked: started.progress?.asked ?? 0,
    question: null, done: false, reasked: started.type === "session.resumed",
    level: started.plan?.adaptive_difficulty?.start ?? null, questions: new Map() };
  // Announced once each through the page's polite announcer (`announce`): a whole question,
  // what was heard, an assessment. The regions themselves stay quiet while they change.
  const progress = el("p", { class: "progress", id: "progress" });
  const question = el("p", { class: "question", id: "question" });
  const partial = el("p", { class: "transcript", id: "transcript", "aria-live": "off" });
  const feedback = el("div", { id: "feedback" });
  const box = answerBox("answer", "Your answer", (text) => link.send({ type: "answer.text", text }));
  const { controls, mic, status } = voice ? voiceControls() : { controls: null, mic: null, status: null };
  const end = confirmingButton("end", "End exam", "Press again to end: it is graded as it stands", () => link.send({ type: "session.end" }));
  const drawProgress = () => {
    progress.textContent = `Question ${state.asked} of ${state.planned} planned` +
      (state.bonusMax ? ` · bonus ${state.bonus} of ${state.bonusMax}` : "") +
      (state.level ? ` · level: ${state.level}` : "");
  };
  drawProgress();
  show(el("h1", {}, "Oral exam"), progress, feedback,
    el("section", { class: "card", "aria-label": "Question" }, question, partial, controls,
      box.label, el("div", { class: "composer" }, box.input, box.button), box.mark),
    el("div", { class: "row" }, end));
  const asked = (event) => {
    // Progress counts primary questions (and bonus ones apart); a resume asks the open
    // question again, which the resumed progress already counts.
    if (state.reasked) state.reasked = false;
    else if (event.kind === "bonus") state.bonus += 1;
    else if (event.kind === "primary") state.asked += 1;
    state.question = event.question_id;
    const label = questionLabel(event.kind, state.asked, state.bonus);
    state.questions.set(event.question_id, { label, text: event.text });
    if (event.difficulty) state.level = event.difficulty;
    question.textContent = event.text;
    partial.textContent = "";
    partial.classList.remove("final");
    drawProgress();
    announce(`${label}: ${event.text}`);
    speaker.say(event.text);
  };
  return {
    get done() { return state.done; },
    attached(event) {
      if (event.type !== "session.resumed") return;
      state.asked = event.progress.asked;
      state.bonus = event.progress.bonus_used;
      state.planned = event.progress.planned_questions;
      state.reasked = true;
      drawProgress();
    },
    leave() { mic?.stop(); },
    refused(_event, refused) { box.restore(refused); },
    event(event) {
      showSpeech(status, event);
      if (event.type === "question.delta") {
        if (state.question !== event.question_id) { state.question = event.question_id; question.textContent = ""; }
        question.textContent += event.text;
      } else if (event.type === "question") {
        asked(event);
      } else if (event.type === "transcript.partial") {
        partial.classList.remove("final");
        partial.textContent = event.text;
      } else if (event.type === "transcript.final") {
        partial.classList.add("final");
        partial.textContent = `You said: ${event.text}`;
        announce(`You said: ${event.text}`);
        state.said = event.text;
      } else if (event.type === "answer.unclear") {
        feedback.replaceChildren(el("div", { class: "card warn" }, event.message));
        announce(event.message);
      } else if (event.type === "answer.assessing") {
        const label = state.questions.get(state.question)?.label ?? "Your answer";
        feedback.replaceChildren(el("div", { class: "card muted", id: "assessing" }, `${label}: assessing your answer\u2026`));
      } else if (event.type === "assessment") {
        state.reasked = false;
        const card = assessedCard(event, state.questions.get(event.question_id), state.said);
        state.said = null;
        feedback.replaceChildren(card);
        announce([...card.querySelectorAll("h2, .explanation")].map((n) => n.textContent).join(". "));
      } else if (event.type === "session.completed") {
        state.done = true;
        mic?.stop();
        resultScreen(event.session_id, "exam", event.result);
      }
    },
  };
}
