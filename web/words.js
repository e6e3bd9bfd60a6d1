// What the client says to people: the server's codes (scores, outcomes, microphone errors,
// a selection of tasks) in plain words. Pure functions, no DOM; app.js imports them and
// the browser tests import this module into the page to check them directly.

const SCORES = {
  satisfactory: ["Satisfactory", "the answer met the standard."],
  partial: ["Partly right", "part of what was needed was missing."],
  unsatisfactory: ["Unsatisfactory", "the answer did not meet the standard."],
};

/** A score code ("partial") as people say it ("Partly right"); the code itself if unknown. */
export function scoreWord(score) {
  if (!score) return "Not assessed";
  return SCORES[score]?.[0] ?? score.charAt(0).toUpperCase() + score.slice(1).replace(/_/g, " ");
}

/** What a score means, in a short sentence ("" if unknown). */
export function scoreMeaning(score) {
  const meaning = SCORES[score]?.[1];
  return meaning ? meaning.charAt(0).toUpperCase() + meaning.slice(1) : "";
}

/** How a question is named on screen: "Question 2", "Question 2, follow-up", "Bonus question 1". */
export function questionLabel(kind, asked, bonus) {
  if (kind === "bonus") return `Bonus question ${bonus}`;
  if (kind === "follow_up") return `Question ${asked}, follow-up`;
  return `Question ${asked}`;
}

/** An exam's outcome in words, with what it means. */
export function outcomeWords(result) {
  switch (result.outcome) {
    case "satisfactory":
      return ["Satisfactory", "Every element you were examined on met the standard."];
    case "unsatisfactory":
      return ["Unsatisfactory", "At least one element you were examined on was partly right or did not meet the standard; they are listed below."];
    case "incomplete":
      return ["Incomplete", `The exam ended after ${result.asked} of its ${result.planned_questions} planned questions, ` +
        "so there is no pass or fail verdict: too little was examined to decide. What was asked is scored below; " +
        "start a new exam to cover the rest."];
    default:
      return [scoreWord(result.outcome), ""];
  }
}

/** A microphone that would not start, said helpfully (the raw error goes to the console). */
export function micProblem(err) {
  switch (err?.name) {
    case "NotAllowedError":
    case "SecurityError":
      return "Viva is not allowed to use your microphone. Allow it in your browser's site settings " +
        "(the icon beside the address), then press Start microphone again; or answer by typing.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No microphone was found. Plug one in and press Start microphone again, or answer by typing.";
    case "NotReadableError":
    case "AbortError":
      return "Your microphone is in use by another program or could not be opened. Close that " +
        "program and press Start microphone again, or answer by typing.";
    default:
      return "The microphone could not start. Press Start microphone to try again, or answer by typing.";
  }
}

/** The selection of an exam's task picker: "All 74 tasks", "12 of 74 tasks in 3 areas". */
export function scopeSummary(ticked, total, areas) {
  const tasks = (n) => `${n} task${n === 1 ? "" : "s"}`;
  if (total === 0) return "No tasks";
  if (ticked === total) return `All ${tasks(total)}`;
  if (ticked === 0) return `No tasks ticked: tick at least one`;
  return `${ticked} of ${tasks(total)} in ${areas} area${areas === 1 ? "" : "s"}`;
}
