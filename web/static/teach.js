// Teach our deck: start a session, follow it (polling /api/teach), keep or retake pictures, finish.
const boot = JSON.parse(document.getElementById("boot").textContent);
const T = boot.strings;
const $ = (id) => document.getElementById(id);
const POLL_MS = 400;

function fmt(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, k) => String(params[k] ?? ""));
}

function cardName(card) {
  return card ? `${boot.suits[card[0]] ?? card[0]} ${card.slice(1)}` : "";
}

function cropUrl(card, picture) {
  return `/api/teach/crops/${card}.png?v=${picture}`;
}

function showError(text) {
  $("teach-error").textContent = text;
  $("teach-error").hidden = false;
}

// A poll sent before a change was made may answer after it: its older state is not shown.
let epoch = 0;

async function send(path, body) {
  epoch += 1;
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  if (r.status === 401) {
    showError(T.need_pin);
    return;
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    showError(data.error ?? `HTTP ${r.status}`);
    return;
  }
  $("teach-error").hidden = true;
  epoch += 1;
  render(data);
}

let shownPictures = -1; // pictures taken so far: a new one is fetched
let shownKinds = "";

function kindItem(card) {
  const li = document.createElement("li");
  li.dataset.card = card;
  const name = document.createElement("span");
  name.className = "teach-name";
  name.textContent = cardName(card);
  const img = document.createElement("img");
  img.alt = cardName(card);
  img.hidden = true;
  const again = document.createElement("button");
  again.type = "button";
  again.textContent = T.retake;
  again.dataset.retake = card;
  again.hidden = true;
  again.addEventListener("click", () => send("/api/teach/retake", { card }));
  li.append(name, img, again);
  return li;
}

function renderKinds(st) {
  const list = $("teach-kinds");
  const key = st.kinds.join(",");
  if (key !== shownKinds) {
    list.replaceChildren(...st.kinds.map(kindItem));
    shownKinds = key;
  }
  const taken = new Set(st.taken);
  for (const li of list.children) {
    const card = li.dataset.card;
    const has = taken.has(card) || st.captured === card;
    li.dataset.state = taken.has(card) ? "taken" : st.captured === card ? "captured" : st.asked === card ? "asked" : "";
    const img = li.querySelector("img");
    if (has && img.hidden) img.src = cropUrl(card, st.pictures); // a kept picture never changes: fetched once
    img.hidden = !has;
    li.querySelector("button").hidden = !has;
  }
}

function statusLine(st) {
  if (!st.mat) return T.no_mat;
  if (st.status === "captured" && st.doubt) return fmt(T.doubt, { value: st.doubt, card: cardName(st.captured) });
  if (st.status === "captured") return fmt(T.captured, { card: cardName(st.captured) });
  return T[st.status] ?? "";
}

function renderLesson(st) {
  $("teach-ask").textContent = st.asked ? fmt(T.lay, { card: cardName(st.asked) }) : "";
  const status = $("teach-status");
  status.dataset.status = !st.mat ? "no_mat" : st.doubt ? "doubt" : st.status;
  status.textContent = statusLine(st);
  if (st.captured && st.pictures !== shownPictures) $("teach-crop").src = cropUrl(st.captured, st.pictures);
  shownPictures = st.pictures;
  $("teach-capture").hidden = !st.captured;
  $("teach-count").max = st.total;
  $("teach-count").value = st.done;
  $("teach-count-text").textContent = fmt(T.count, { done: st.done, total: st.total });
  $("teach-finish").disabled = st.done < st.total;
  renderKinds(st);
}

function renderResult(st) {
  let text = "";
  let settings = "";
  if (st.status === "saved") {
    text = st.error ? st.message : T.saved;
    settings = st.settings ? fmt(T.settings, { path: st.settings }) : "";
  } else if (st.status === "failed") {
    text = fmt(T.failed, { message: st.message ?? st.error });
  } else if (st.status === "cancelled") {
    text = T.cancelled;
  }
  $("teach-result-text").textContent = text;
  $("teach-settings").textContent = settings;
}

function render(st) {
  const teaching = st.active && st.status !== "fitting";
  $("teach-start").hidden = st.active;
  $("teach-live").hidden = !teaching;
  $("teach-fit").hidden = st.status !== "fitting";
  $("teach-result").hidden = !["saved", "failed", "cancelled"].includes(st.status);
  if (teaching) renderLesson(st);
  if (st.status === "fitting" && st.progress) {
    $("teach-fit-bar").max = st.progress.total;
    $("teach-fit-bar").value = st.progress.done;
    $("teach-fit-text").textContent = fmt(T.fitting, st.progress);
  }
  renderResult(st);
  document.body.dataset.teach = st.status;
}

async function poll() {
  try {
    const sent = epoch;
    const r = await fetch("/api/teach", { headers: { Accept: "application/json" } });
    const st = r.ok ? await r.json() : null;
    if (st && sent === epoch) render(st);
  } catch (e) {
    // the box restarts or the network blinks: the next poll tries again
  }
  setTimeout(poll, POLL_MS);
}

$("teach-start").addEventListener("submit", (event) => {
  event.preventDefault();
  send("/api/teach", { variant: $("teach-variant").value });
});
// The button is served disabled: a tap before this script runs would reload the page and be lost.
$("teach-go").disabled = false;
$("teach-ok").addEventListener("click", () => send("/api/teach/confirm"));
$("teach-retake").addEventListener("click", () => send("/api/teach/retake"));
$("teach-cancel").addEventListener("click", () => send("/api/teach/cancel"));
$("teach-finish").addEventListener("click", () => send("/api/teach/finish"));
poll();
