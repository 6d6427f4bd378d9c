// The high-contrast theme: the user's choice (kept in this browser) or else the system's
// "more contrast" setting. Loaded in <head> so the page never flashes in the other theme.
const KEY = "contrast";
const root = document.documentElement;
const system = window.matchMedia("(prefers-contrast: more)");
let choice = null;  // "more" | "normal" | null (follow the system)
try { choice = localStorage.getItem(KEY); } catch { /* storage blocked: follow the system */ }

function apply() {
  const on = choice ? choice === "more" : system.matches;
  root.dataset.contrast = on ? "more" : "normal";
  document.getElementById("contrast-toggle")?.setAttribute("aria-pressed", String(on));
}

function toggle() {
  choice = root.dataset.contrast === "more" ? "normal" : "more";
  try { localStorage.setItem(KEY, choice); } catch { /* kept for this page only */ }
  apply();
}

apply();
system.addEventListener("change", apply);
document.addEventListener("DOMContentLoaded", () => {
  apply();
  document.getElementById("contrast-toggle")?.addEventListener("click", toggle);
});
