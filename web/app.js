// Viva's browser client: sign-in, the start screen, and one screen per session mode (exam,
// assessment, tutor), over the wire protocol of shared/spec/protocol.md. No framework: each
// screen is a function that renders into <main> and handles the server events of its mode.
// Every client event that changes a session carries an event_id and stays in `pending`
// until its ack (or error), so a reconnect resends it and the server applies it once.

import { micProblem, scopeSummary } from "/words.js";
import { finishSignIn, providerConfig, providerName, startSignIn } from "/sign-in.js";
import { $, announce, el, fill, notice, show } from "/dom.js";
import { auth, deviceId, getJson, link } from "/link.js";
import { resultBody } from "/results.js";
import { assessmentScreen } from "/assessment.js";
import { examScreen } from "/exam.js";
import { tutorScreen } from "/tutor.js";

let catalog = null;


// ---------------------------------------------------------------- voice

/** The microphone: 16 kHz PCM16 frames of 40 ms from the worklet, sent as binary frames. */
class Mic {
  constructor(meter) {
    this.meter = meter;
    this.context = null;
    this.stream = null;
    this.sending = false;
    this.muted = () => false;
  }

  async start() {
    if (this.context) { this.sending = true; return; }
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    this.context = new AudioContext();
    await this.context.audioWorklet.addModule("/mic-worklet.js");
    const source = this.context.createMediaStreamSource(this.stream);
    const frames = new AudioWorkletNode(this.context, "mic-frames");
    frames.port.onmessage = ({ data }) => {
      if (this.meter) this.meter.style.width = `${Math.min(100, data.level * 400)}%`;
      if (!this.sending || this.muted()) return;
      const sent = link.sendAudio(data.pcm);
      if (!sent && !this.lost) notice("The connection dropped: what you say now is not heard. Say it again once it is back.");
      if (sent && this.lost) notice("");
      this.lost = !sent;
    };
    source.connect(frames);
    this.sending = true;
  }

  pause() { this.sending = false; if (this.meter) this.meter.style.width = "0"; }

  stop() {
    this.pause();
    this.stream?.getTracks().forEach((track) => track.stop());
    this.context?.close();
    this.context = null;
    this.stream = null;
  }
}

/** The server's voice (`"speak": true`): PCM16 frames played through an AudioContext at
 * the rate `examiner.voice.started` announces, stopped at once on a cancelled end. The page
 * counts what it scheduled in `globalThis.vivaVoice` (read by the browser tests). */
const examinerVoice = {
  on: localStorage.getItem("viva.server-voice") === "on",
  context: null,
  rate: 22050,
  utterance: null,
  next: 0,
  sources: new Set(),
  stats: (globalThis.vivaVoice = { started: 0, frames: 0, samples: 0, ended: [] }),
  toggle() {
    this.on = !this.on;
    localStorage.setItem("viva.server-voice", this.on ? "on" : "off");
    if (this.on) this.wake(); else this.stop();
    return this.on;
  },
  /** The context, made or resumed inside a click where the browser asks for one. */
  wake() {
    this.context ??= new AudioContext();
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
    return this.context;
  },
  event(event) {
    if (event.type === "examiner.voice.started") {
      this.stop();
      this.utterance = event.utterance_id;
      this.rate = event.sample_rate;
      this.stats.started += 1;
    } else if (event.type === "examiner.voice.ended" && event.utterance_id === this.utterance) {
      this.stats.ended.push(event.status);
      if (event.status === "cancelled") this.stop();
      this.utterance = null;
    }
  },
  audio(buffer) {
    if (!this.on || !this.utterance || !(buffer instanceof ArrayBuffer)) return;
    const pcm = new Int16Array(buffer, 0, buffer.byteLength >> 1);
    if (pcm.length === 0) return;
    const context = this.wake();
    const clip = context.createBuffer(1, pcm.length, this.rate);
    const samples = clip.getChannelData(0);
    for (let i = 0; i < pcm.length; i += 1) samples[i] = pcm[i] / 32768;
    const source = context.createBufferSource();
    source.buffer = clip;
    source.connect(context.destination);
    this.next = Math.max(this.next, context.currentTime + 0.05);
    source.start(this.next);
    this.next += clip.duration;
    this.sources.add(source);
    source.onended = () => this.sources.delete(source);
    this.stats.frames += 1;
    this.stats.samples += pcm.length;
  },
  stop() {
    for (const source of this.sources) { try { source.stop(); } catch { /* not started */ } }
    this.sources.clear();
    this.next = 0;
  },
};

link.onAudio = (data) => examinerVoice.audio(data);

/** Reads text aloud with the browser's speech synthesis, when switched on (and the server's
 * voice is not). */
const speaker = {
  on: localStorage.getItem("viva.speak") !== "off",
  say(text) {
    if (!this.on || examinerVoice.on || !globalThis.speechSynthesis || !text) return;
    speechSynthesis.cancel();
    speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  },
  speaking() { return Boolean(globalThis.speechSynthesis?.speaking); },
  toggle() {
    this.on = !this.on;
    localStorage.setItem("viva.speak", this.on ? "on" : "off");
    if (!this.on) globalThis.speechSynthesis?.cancel();
    return this.on;
  },
};

/** The voice controls of a screen: hands-free, push-to-talk, a level meter, and a speaker
 * toggle. Audio is not sent while the screen's own voice is speaking. */
function voiceControls() {
  const meter = el("span");
  const mic = new Mic(meter);
  mic.muted = () => speaker.speaking();
  const status = el("span", { class: "muted", id: "voice-status", "aria-live": "off" });
  const handsFree = el("button", {
    type: "button", id: "mic", "aria-pressed": "false",
    onclick: async () => {
      if (handsFree.getAttribute("aria-pressed") === "true") {
        mic.pause();
        handsFree.setAttribute("aria-pressed", "false");
        handsFree.classList.remove("mic-on");
        handsFree.textContent = "Start microphone";
        return;
      }
      try {
        await mic.start();
        handsFree.setAttribute("aria-pressed", "true");
        handsFree.classList.add("mic-on");
        handsFree.textContent = "Stop microphone";
        status.textContent = "Listening: pause when you are done.";
        notice("");
        announce("Microphone on: listening. Pause when you are done.");
      } catch (err) {
        console.warn("The microphone could not start:", err);
        notice(micProblem(err));
      }
    },
  }, "Start microphone");
  let held = false;
  const talk = el("button", { type: "button", id: "push-to-talk", class: "quiet" }, "Hold to talk");
  const press = async (event) => {
    event.preventDefault();
    if (held) return;
    held = true;
    link.send({ type: "audio.clear" }, { track: false });
    try { await mic.start(); status.textContent = "Talking… release to send."; } catch (err) {
      held = false;
      console.warn("The microphone could not start:", err);
      notice(micProblem(err));
    }
  };
  const release = () => {
    if (!held) return;
    held = false;
    mic.pause();
    link.send({ type: "audio.commit" });
    status.textContent = "Sent.";
  };
  talk.addEventListener("pointerdown", press);
  talk.addEventListener("pointerup", release);
  talk.addEventListener("pointerleave", release);
  talk.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") press(e); });
  talk.addEventListener("keyup", (e) => { if (e.key === " " || e.key === "Enter") release(); });
  const speak = toggleButton("speak", "Read aloud", speaker);
  const serverVoice = toggleButton("server-voice", "Server voice", examinerVoice,
    "The examiner's own voice from the server (applies from the next question you start or resume)");
  const controls = el("div", { class: "row" }, handsFree, talk,
    el("span", { class: "meter", role: "img", "aria-label": "microphone level" }, meter), speak, serverVoice, status);
  return { controls, mic, status };
}

/** A switch as a toggle button: `aria-pressed`, and a visible state that is more than a
 * colour (a tick and "on", or "off"); its accessible name stays `label`. */
function toggleButton(id, label, switchable, title) {
  const state = el("span", { class: "toggle-state", "aria-hidden": "true" });
  const button = el("button", { type: "button", class: "quiet toggle", id, title },
    el("span", { class: "toggle-mark", "aria-hidden": "true" }), label, state);
  const draw = (on) => {
    button.setAttribute("aria-pressed", String(on));
    button.firstChild.textContent = on ? "\u2713 " : "";
    state.textContent = on ? ": on" : ": off";
  };
  button.addEventListener("click", () => draw(switchable.toggle()));
  draw(switchable.on);
  return button;
}

/** What the server hears, on a voice screen's status line: `speech.started`,
 * `speech.stopped` (how long it will wait before it ends the turn) and `answer.assessing`. */
function showSpeech(status, event) {
  if (!status) return;
  if (event.type === "speech.started") status.textContent = "Listening…";
  else if (event.type === "speech.stopped") {
    const seconds = (event.wait_ms / 1000).toFixed(1);
    status.textContent = event.end_of_turn === "complete"
      ? `You paused: answering in ${seconds} s`
      : `You paused: waiting ${seconds} s`;
  } else if (event.type === "answer.assessing") status.textContent = "Assessing…";
}

// ---------------------------------------------------------------- the session

const session = { id: null, mode: null, screen: null };

/** Starts or resumes; the screen for the session's mode takes its events. */
function attach(event) {
  session.id = event.session_id;
  session.mode = event.mode;
  sessionStorage.setItem("viva.session", session.id);
  const screens = { exam: examScreen, assessment: assessmentScreen, tutor: tutorScreen };
  if (!session.screen || session.screen.mode !== event.mode || session.screen.id !== event.session_id) {
    session.screen?.leave?.();
    session.screen = screens[event.mode](event, shell);
    session.screen.mode = event.mode;
    session.screen.id = event.session_id;
  }
  session.screen.attached?.(event);
}

function resume(sessionId) {
  link.open();
  link.send({ type: "session.resume", device_id: deviceId, session_id: sessionId, ...speakFlag() });
}

/** What the mode screens (exam.js, assessment.js, tutor.js) use of this page. */
const shell = { voiceControls, speaker, resultScreen, showSpeech, resume, session, get catalog() { return catalog; } };

/** `speak: true` when the server's voice is on. */
function speakFlag() { return examinerVoice.on ? { speak: true } : {}; }

link.onSignInRefused = () => {
  auth.save(null, null);
  session.screen?.leave?.();
  session.screen = null;
  $("#sign-out").hidden = true;
  $("#who").textContent = "";
  signInScreen();
  notice("Your sign-in was refused or has expired: sign in again.");
};

link.onOpen = () => {
  // After a drop: take the session back, then resend what was not acked.
  const current = session.id ?? sessionStorage.getItem("viva.session");
  if (current && session.screen && !session.screen.done) {
    link.pending.forEach((event, id) => { if (event.type === "session.resume") link.pending.delete(id); });
    link.send({ type: "session.resume", device_id: deviceId, session_id: current, ...speakFlag() });
  } else {
    link.resendPending();
  }
};

link.on((event, refused) => {
  if (event.type.startsWith("examiner.voice.")) {
    examinerVoice.event(event);
  } else if (event.type === "session.started" || event.type === "session.resumed") {
    attach(event);
    if (event.type === "session.resumed") {
      link.resendPending((pending) => pending.type === "session.resume" || pending.type === "session.start");
    }
  } else if (event.type === "session.paused") {
    paused(event);
  } else if (event.type === "error") {
    // Audio refused because the session was busy is speech lost: say so plainly.
    const lostSpeech = event.code === "overloaded" && !event.event_id;
    notice(lostSpeech ? "The server was busy and missed part of what you said: please say it again." : event.message ?? event.code);
    session.screen?.refused?.(event, refused);
  }
  if (session.screen && event.type !== "error") session.screen.event?.(event);
});

function paused(event) {
  if (event.reason === "server_shutdown") return; // the reconnect resumes it
  const text = event.reason === "other_device"
    ? "This session continues on another device."
    : "This session is paused.";
  const dialog = el("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "paused-title" },
    el("div", { class: "card" },
      el("h2", { id: "paused-title" }, text),
      el("p", { class: "muted" }, "Nothing is lost: it stands exactly where you left it."),
      el("div", { class: "row" },
        el("button", { type: "button", id: "continue-here", onclick: () => { dialog.remove(); resume(event.session_id); } }, "Continue here"),
        el("button", { type: "button", class: "quiet", onclick: () => { dialog.remove(); goHome(); } }, "Home"))));
  document.body.append(dialog);
  $("#continue-here").focus();
}

// ---------------------------------------------------------------- sign-in and home

/** The OpenID provider to sign in with (sign-in.js), when the server names one. */
let oidc = null;

function signInScreen() {
  const dev = catalog?.server?.dev_mode;
  if (oidc) {
    const go = () => startSignIn(oidc).catch((err) => notice(`Sign-in failed: ${err.message}`));
    const button = el("button", { type: "button", id: "oidc-sign-in", onclick: go }, `Sign in with ${providerName(oidc)}`);
    if (!dev) { show(el("div", { class: "card" }, el("h1", {}, "Sign in"), button)); button.focus(); return; }
    queueMicrotask(() => $("#app form")?.append(button));
  }
  const field = dev
    ? [el("label", { for: "user" }, "Your name"), el("input", { type: "text", id: "user", autocomplete: "username", required: true, pattern: "[A-Za-z0-9._\\-]{1,64}" })]
    : [el("label", { for: "token" }, "Access token"), el("input", { type: "password", id: "token", required: true })];
  const form = el("form", {
    class: "card",
    onsubmit: (e) => {
      e.preventDefault();
      if (dev) auth.save($("#user").value.trim(), null); else auth.save(null, $("#token").value.trim());
      goHome();
    },
  }, el("h1", {}, "Sign in"), ...field,
  el("p", { class: "muted" }, dev ? "Development mode: a name is enough (letters, digits, . _ -)." : "Paste the token your school or examiner gave you."),
  el("button", { type: "submit" }, "Sign in"));
  show(form);
  $(dev ? "#user" : "#token").focus();
}

function signedInBar() {
  fill($("#who"), el("span", { class: auth.user ? "who-label" : null }, auth.user ? "Signed in as " : "Signed in"), auth.user);
  $("#who").title = auth.user ? `Signed in as ${auth.user}` : "";
  $("#sign-out").hidden = false;
}

async function goHome() {
  session.screen?.leave?.();
  session.screen = null;
  session.id = null;
  sessionStorage.removeItem("viva.session");
  if (!auth.signedIn()) { signInScreen(); return; }
  signedInBar();
  link.open();
  const list = el("div", { id: "sessions" }, el("p", { class: "muted" }, "Loading your sessions…"));
  const review = el("div", { id: "review" }, el("p", { class: "muted" }, "Loading your review…"));
  show(el("h1", {}, "Start or resume"),
    el("div", { class: "grid" }, examStartCard(), assessmentStartCard(), tutorStartCard()),
    el("section", { class: "card", "aria-labelledby": "open-title" }, el("h2", { id: "open-title" }, "Your sessions"), list),
    el("section", { class: "card", "aria-labelledby": "review-title" }, el("h2", { id: "review-title" }, "Due for review"), review));
  try {
    const { sessions } = await getJson("/v1/sessions");
    list.replaceChildren(sessionsTable(sessions));
  } catch (err) {
    list.replaceChildren(el("p", { class: "bad" }, `Your sessions could not be read: ${err.message}`));
  }
  try {
    review.replaceChildren(reviewTable(await getJson("/v1/progress")));
  } catch (err) {
    review.replaceChildren(el("p", { class: "bad" }, `Your review could not be read: ${err.message}`));
  }
}

/** Spaced review per ACS area (`GET /v1/progress`): what a "Weak areas first" exam asks first. */
function reviewTable(report) {
  if (!report.areas.length) return el("p", { class: "muted" }, "Nothing yet: the elements of a finished exam are scheduled here.");
  const day = (ms) => new Date(ms).toLocaleDateString();
  const rating = (name) => (name === "private" ? "Private" : "Commercial");
  return el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Area"), el("th", {}, "Due now"), el("th", {}, "Examined"), el("th", {}, "Next due"))),
    el("tbody", {}, report.areas.map((area) => {
      const later = area.elements.filter((e) => !e.due_now && e.due_ms != null).map((e) => e.due_ms);
      return el("tr", {},
        el("td", {}, `${rating(area.rating)} ${area.area}. ${area.title}`),
        el("td", { title: area.due.join(", ") }, String(area.due.length)),
        el("td", {}, String(area.elements.length)),
        el("td", {}, later.length ? day(Math.min(...later)) : "—"));
    })));
}

function sessionsTable(sessions) {
  if (!sessions.length) return el("p", { class: "muted" }, "None yet.");
  return el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Session"), el("th", {}, "Status"), el("th", {}, ""))),
    el("tbody", {}, sessions.map((s) => el("tr", {},
      el("td", {}, s.title ?? s.session_id.slice(0, 8)),
      el("td", {}, s.status),
      el("td", {}, s.status === "active" || s.status === "paused"
        ? el("button", { type: "button", class: "quiet", onclick: () => resume(s.session_id), "aria-label": `Resume ${s.title ?? s.session_id}` }, "Resume")
        : s.status === "completed"
          ? el("button", { type: "button", class: "quiet", onclick: () => resultScreen(s.session_id, s.mode) }, "Result")
          : "")))));
}

function select(id, label, options, value) {
  return [el("label", { for: id }, label),
    el("select", { id }, options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)))];
}

function start(mode, config) {
  link.open();
  if (examinerVoice.on) examinerVoice.wake();
  link.send({ type: "session.start", device_id: deviceId, mode, config, ...speakFlag() });
  notice("Starting…", "info");
}

/** The exam's task picker: every task ticked to begin with, an area's box ticking or
 * clearing its tasks (and showing mixed when some are ticked), folded in a <details> whose
 * summary, like the line above Start, says what is ticked. */
function taskPicker(summaryLine) {
  const areaBox = el("div", { class: "checks", id: "exam-areas" });
  const folded = el("summary", { id: "exam-scope-title" }, "Choose areas and tasks");
  const details = el("details", { id: "exam-scope" }, folded, areaBox);
  const boxes = (name, root = areaBox) => [...root.querySelectorAll(`input[name=${name}]`)];
  const refresh = () => {
    for (const group of areaBox.querySelectorAll("fieldset")) {
      const tasks = boxes("task", group).map((box) => box.checked);
      const area = $("input[name=area]", group);
      area.checked = tasks.every(Boolean);
      area.indeterminate = !area.checked && tasks.some(Boolean);
    }
    const ticked = boxes("task").filter((box) => box.checked);
    const areas = new Set(ticked.map((box) => box.dataset.area)).size;
    summaryLine.textContent = scopeSummary(ticked.length, boxes("task").length, areas);
    folded.textContent = `Choose areas and tasks (${summaryLine.textContent})`;
  };
  const fillAreas = (rating) => {
    areaBox.replaceChildren(...(rating?.areas ?? []).map((area) => el("fieldset", {},
      el("legend", {}, el("label", {}, el("input", { type: "checkbox", name: "area", value: area.area, checked: true }),
        `${area.area}. ${area.title}`)),
      ...area.tasks.map((task) => el("label", { class: "task" },
        el("input", { type: "checkbox", name: "task", value: task.task_code, "data-area": area.area, checked: true }),
        `${task.task_code} ${task.title}`)))));
    refresh();
  };
  areaBox.addEventListener("change", (e) => {
    if (e.target.name === "area") boxes("task", e.target.closest("fieldset")).forEach((box) => { box.checked = e.target.checked; });
    refresh();
  });
  /** The tasks ticked: null for all of them. */
  const picked = () => {
    const all = boxes("task");
    const ticked = all.filter((box) => box.checked).map((box) => box.value);
    return ticked.length === all.length ? null : ticked;
  };
  return { details, fillAreas, picked };
}

function examStartCard() {
  const ratings = catalog?.ratings ?? [];
  const scope = el("span", { class: "scope", id: "exam-scope-summary", "aria-live": "polite" });
  const picker = taskPicker(scope);
  const card = el("form", {
    class: "card", id: "start-exam",
    onsubmit: (e) => {
      e.preventDefault();
      const tasks = picker.picked();
      if (tasks && !tasks.length) {
        notice("Tick at least one task under \u201cChoose areas and tasks\u201d, or tick them all.");
        picker.details.open = true;
        return;
      }
      const config = {
        rating: $("#exam-rating").value, study_mode: $("#exam-study").value,
        difficulty: $("#exam-difficulty").value, input: $("#exam-input").value,
      };
      if ($("#exam-style").value === "checkride") config.examiner_style = "checkride";
      if (tasks) config.tasks = tasks;
      start("exam", config);
    },
  }, el("h2", {}, "Oral exam"),
  ...select("exam-rating", "Rating", ratings.map((r) => [r.rating, r.title]), "private"),
  ...select("exam-study", "Study mode", [["linear", "In ACS order"], ["cross_acs", "Across the ACS"], ["weak_areas", "Weak areas first"]], "linear"),
  ...select("exam-difficulty", "Difficulty", [["mixed", "Mixed"], ["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"], ["adaptive", "Adaptive (follows your answers)"]], "mixed"),
  ...select("exam-style", "Examiner", [["study", "Study: a verdict after each answer"], ["checkride", "Checkride: a debrief at the end"]], "study"),
  ...select("exam-input", "Answer by", catalog?.server?.voice ? [["voice", "Voice"], ["text", "Typing"]] : [["text", "Typing"]], catalog?.server?.voice ? "voice" : "text"),
  el("p", { class: "scope-line" }, "Questions from: ", scope),
  el("div", { class: "row" }, el("button", { type: "submit", id: "start-exam-button" }, "Start exam")),
  picker.details);
  const fillPicker = () => picker.fillAreas(ratings.find((r) => r.rating === $("#exam-rating")?.value) ?? ratings[0]);
  queueMicrotask(() => { $("#exam-rating")?.addEventListener("change", fillPicker); fillPicker(); });
  return card;
}

function assessmentStartCard() {
  const assessments = catalog?.assessments ?? [];
  return el("form", {
    class: "card", id: "start-assessment",
    onsubmit: (e) => {
      e.preventDefault();
      start("assessment", { assessment_id: $("#assessment-id").value, learning: $("#assessment-learning").checked });
    },
  }, el("h2", {}, "Assessment"),
  ...select("assessment-id", "Assessment", assessments.map((a) => [a.assessment_id, `${a.title} (${a.total_items} items)`]), assessments[0]?.assessment_id),
  el("label", {}, el("input", { type: "checkbox", id: "assessment-learning" }), " Learning mode (feedback after each answer)"),
  el("div", { class: "row" }, el("button", { type: "submit", id: "start-assessment-button" }, "Start assessment")));
}

function tutorStartCard() {
  const courses = catalog?.courses ?? [];
  return el("form", {
    class: "card", id: "start-tutor",
    onsubmit: (e) => { e.preventDefault(); start("tutor", { course_id: $("#tutor-course").value }); },
  }, el("h2", {}, "Tutoring"),
  ...select("tutor-course", "Course", courses.map((c) => [c.course_id, `${c.title} (${c.units} units)`]), courses[0]?.course_id),
  el("div", { class: "row" }, el("button", { type: "submit", id: "start-tutor-button" }, "Start tutoring")));
}

// ---------------------------------------------------------------- results

async function resultScreen(sessionId, mode, fromEvent) {
  sessionStorage.removeItem("viva.session");
  let result = fromEvent;
  try { result = await getJson(`/v1/sessions/${encodeURIComponent(sessionId)}/result`); } catch { /* the event's own copy */ }
  const back = el("div", { class: "row" }, el("button", { type: "button", onclick: goHome }, "Home"));
  if (!result) { show(el("h1", {}, "Result"), el("p", {}, "The result is not ready yet."), back); return; }
  show(el("h1", { id: "result-title" }, "Result"), ...resultBody(result, mode), back);
}


// ---------------------------------------------------------------- boot

async function boot() {
  const params = new URLSearchParams(location.search);
  if (params.get("access_token")) {
    auth.save(null, params.get("access_token"));
    history.replaceState(null, "", location.pathname);
  }
  $("#sign-out").addEventListener("click", () => { link.close(); auth.save(null, null); $("#sign-out").hidden = true; $("#who").textContent = ""; goHome(); });
  $("#home-link").addEventListener("click", (e) => { e.preventDefault(); goHome(); });
  try {
    catalog = await (await fetch("/v1/catalog")).json();
  } catch (err) {
    notice(`The server could not be reached: ${err.message}`);
  }
  oidc = await providerConfig();
  try {
    const signedIn = await finishSignIn(oidc);
    if (signedIn) auth.save(signedIn.user, signedIn.token);
  } catch (err) {
    notice(`Sign-in failed: ${err.message}`);
  }
  const open = sessionStorage.getItem("viva.session");
  if (auth.signedIn() && open) {
    signedInBar();
    show(el("p", { class: "muted" }, "Resuming…"));
    session.screen = null;
    resume(open);
  } else {
    goHome();
  }
}

link.on((event) => { if (event.type === "session.started" || event.type === "session.resumed") notice(""); });

boot();
