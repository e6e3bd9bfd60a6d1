// The page's building blocks: elements, the notice line, the polite live region and the
// <main> a screen renders into. No state of its own but the live region.

export const $ = (selector, root = document) => root.querySelector(selector);

/** A button that asks to be pressed again within 5 s before it acts (ending a session). */
export function confirmingButton(id, label, confirmLabel, action) {
  let armed = null;
  const button = el("button", {
    type: "button", class: "danger", id,
    onclick: () => {
      if (armed) { clearTimeout(armed); armed = null; button.textContent = label; action(); return; }
      button.textContent = confirmLabel;
      armed = setTimeout(() => { armed = null; button.textContent = label; }, 5000);
    },
  }, label);
  return button;
}

/** A wide table in its own horizontally scrolling box (so a phone's page keeps its width),
 * which the keyboard can scroll too. */
export function scrolling(label, table) {
  return el("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": label }, table);
}

/** Builds an element: el("button", {type: "button", onclick}, "Text", child…). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function newId(prefix) {
  const random = globalThis.crypto?.randomUUID?.() ??
    `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `${prefix}-${random}`;
}

export function notice(message, kind = "error") {
  const box = $("#notice");
  box.textContent = message;
  box.className = kind === "error" ? "notice" : "notice info";
  box.hidden = !message;
}

/** Replaces `node`'s children, skipping the absent (DOM's own would write "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** The page's one polite live region: what a screen reader should hear once (a whole
 * question, what was heard, an assessment), kept apart from regions that change often. */
const announcer = el("div", { class: "visually-hidden", id: "announcer", role: "status", "aria-live": "polite" });
document.body.append(announcer);

export function announce(text) {
  if (!text) return;
  announcer.append(el("p", {}, text));
  while (announcer.childElementCount > 3) announcer.firstElementChild.remove();
}

export function show(...nodes) {
  const main = $("#app");
  fill(main, ...nodes);
  main.focus({ preventScroll: true });
}
