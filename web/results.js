// A finished session's result, by mode: an exam's outcome, areas, debrief and transcript; an
// assessment's score by section; a tutoring session's tally and tiers.

import { el, scrolling } from "/dom.js";
import { outcomeWords, questionLabel, scoreWord } from "/words.js";

export function tierBadge(tier) {
  return el("span", { class: `badge tier-${tier}` }, tier === "none" ? "no tier yet" : tier);
}

function examResult(r) {
  const [outcome, meaning] = outcomeWords(r);
  return [
    el("p", { class: "question" }, "Outcome: ", el("strong", { class: `score-${r.outcome}`, id: "outcome" }, outcome)),
    meaning ? el("p", { id: "outcome-meaning" }, meaning) : null,
    el("p", { class: "muted" }, `${r.asked} of ${r.planned_questions} planned questions asked, ${r.credited_by_mention} credited by mention, ${r.bonus_used} bonus.`),
    ...debriefSection(r.debrief),
    r.adaptive_difficulty ? el("p", { class: "muted", id: "levels" }, `Adaptive difficulty: started ${r.adaptive_difficulty.start}, ended ${r.adaptive_difficulty.end} (` +
      r.adaptive_difficulty.levels.map((l) => `${l.level} from question ${l.from_question}`).join(", ") + ").") : null,
    el("h2", {}, "By area"),
    scrolling("Results by area", el("table", { id: "areas" }, el("thead", {}, el("tr", {}, ["Area", "Satisfactory", "Partial", "Unsatisfactory", "By mention", "Not covered"].map((h) => el("th", {}, h)))),
      el("tbody", {}, r.areas.map((a) => el("tr", {}, el("td", {}, `${a.area}. ${a.title}`),
        [a.satisfactory, a.partial, a.unsatisfactory, a.credited_by_mention, a.not_covered].map((n) => el("td", {}, String(n)))))))),
    el("h2", {}, "Transcript"),
    scrolling("Transcript", transcriptTable(r.transcript ?? [])),
  ];
}

/** Each question as the examiner asked it (its element code beneath), the answer and its
 * score in words. */
function transcriptTable(turns) {
  let asked = 0, bonus = 0;
  const rows = turns.map((t) => {
    if (t.kind === "primary") asked += 1; else if (t.kind === "bonus") bonus += 1;
    return el("tr", {},
      el("th", { scope: "row" }, questionLabel(t.kind, asked, bonus)),
      el("td", {}, t.question ? el("span", { class: "asked-text" }, t.question) : null,
        el("span", { class: "code" }, `Element ${t.element_code}`)),
      el("td", {}, t.answer ?? "\u2014"),
      el("td", { class: `score-${t.score}` }, t.score ? scoreWord(t.score) : "\u2014"));
  });
  return el("table", { id: "result-transcript" },
    el("thead", {}, el("tr", {}, ["Question", "What was asked", "Your answer", "Assessed"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

// A checkride's debrief: the outcome as the examiner states it, then each element that was
// not satisfactory with what was said, the correction and its sources.
function debriefSection(debrief) {
  if (!debrief) return [];
  return [
    el("h2", {}, "Debrief"),
    el("p", { id: "debrief-outcome" }, debrief.outcome_statement),
    ...debrief.items.map((item) => el("div", { class: "card debrief-item" },
      el("p", {}, el("strong", { class: `score-${item.score}` }, item.score), ` · ${item.element_code} · ${item.task}`),
      el("p", { class: "muted" }, item.element),
      el("p", {}, "You said: ", item.said.length ? item.said.map((s) => `“${s}”`).join(" — then — ") : "nothing"),
      el("p", {}, item.correction),
      item.sources ? el("p", { class: "muted" }, `Sources: ${item.sources}`) : null)),
  ];
}

function assessmentResult(r) {
  return [
    el("p", { class: "question", id: "outcome" }, `${r.score_percent}% · ${r.grade_band} · `,
      el("strong", { class: r.passed ? "good" : "bad" }, r.passed ? "passed" : "not passed")),
    el("p", { class: "muted" }, `${r.items_correct} right of ${r.items_attempted} attempted (${r.items_total} items, ${r.items_skipped} skipped).`),
    scrolling("Results by section", el("table", { id: "areas" }, el("thead", {}, el("tr", {}, ["Section", "Attempted", "Right", "Accuracy"].map((h) => el("th", {}, h)))),
      el("tbody", {}, (r.sections ?? []).map((s) => el("tr", {}, el("td", {}, s.title), el("td", {}, String(s.attempted)),
        el("td", {}, String(s.correct)), el("td", {}, `${Math.round(s.accuracy * 100)}%`)))))),
  ];
}

function tutorResult(r) {
  return [
    el("p", { class: "question", id: "outcome" }, `${r.turns} turns · ${r.drills_right} of ${r.drills_checked} drills right · ${r.exams_passed} of ${r.exams_taken} exams passed`),
    el("ul", {}, (r.tiers_earned ?? []).map((t) => el("li", {}, `${t.unit_id}: `, tierBadge(t.tier)))),
  ];
}

/** The result's body for its mode. */
export function resultBody(result, mode) {
  if (mode === "exam" || result.mode === "exam") return examResult(result);
  return result.mode === "assessment" ? assessmentResult(result) : tutorResult(result);
}
