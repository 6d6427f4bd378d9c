// The live table: renders every `state` event from /api/events and sends the host's commands.
const boot = JSON.parse(document.getElementById("boot").textContent);
const T = boot.strings;
const $ = (id) => document.getElementById(id);
let state = null;
let picked = null;
let announced = null;
let alerting = null;  // {key, changes}: the last-copy / pace alert shown until dismissed or the next action
let dismissed = null;  // the key of the alert the user closed
const ALERT_KINDS = ["last_copy_lost", "pace_zero"];
const NUDGE_CLOSED = "teach-nudge-closed";  // localStorage: the game whose suggestion was put aside

function fmt(text, params = {}) {
  return text.replace(/%\((\w+)\)s/g, (_, k) => (k in params ? String(params[k]) : ""));
}

function cardName(card) {
  return card ? `${boot.suits[card[0]] ?? card[0]} ${card.slice(1)}` : "";
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Every card tile also carries its suit's letter (drawn by the stylesheet), not only its colour.
function suitTile(e, suit) {
  e.classList.add("card", `suit-${suit}`);
  e.dataset.suit = suit;
  e.dataset.letter = suit.toUpperCase();
  return e;
}

function cardEl(card, extra = "") {
  const e = suitTile(el("span", extra, card.slice(1)), card[0]);
  e.title = cardName(card);
  return e;
}

// A line of text with the tile of its card in front (the colour-blind read the tile's letter).
function cardLine(card, text) {
  const line = el("span", "card-line");
  if (card) line.append(cardEl(card, "inline"), " ");
  line.append(text);
  return line;
}

function tokens(box, filled, total) {
  box.replaceChildren(...Array.from({ length: total }, (_, i) => el("i", i < filled ? "on" : "off")));
}

function eventText(change) {
  if (!change || !(change.kind in T)) return "";
  const p = { ...change.params };
  for (const k of ["card", "old"]) if (p[k]) p[k] = cardName(p[k]);
  if (Array.isArray(p.players)) p.players = p.players.join(", ");
  if (p.tile) p.tile = T[`tile_${p.tile}`] ?? p.tile;
  return fmt(T[change.kind], p);
}

function render(s) {
  state = s;
  const playing = s.outcome !== "no_game";
  $("nogame").hidden = playing;
  $("game").hidden = !playing;
  $("camera").textContent = T[`camera_${s.camera}`] ?? s.camera;
  $("camera").dataset.state = s.camera;
  $("camera-reason").hidden = !s.camera_reason;
  $("camera-reason").textContent = s.camera_reason ?? "";
  $("storage").hidden = !s.storage;
  $("storage").textContent = s.storage ? (T[`storage_${s.storage}`] ?? s.storage) : "";
  if (!playing) return;
  $("score").textContent = s.score;
  $("max-score").textContent = s.max_score;
  $("reachable").textContent = s.reachable_score;
  $("hints").textContent = `${s.hints}/${s.hint_tokens}`;
  tokens($("hint-tokens"), s.hints, s.hint_tokens);
  $("fuses").textContent = `${s.fuses_used}/${s.fuse_tokens}`;
  tokens($("fuse-tokens"), s.fuses_used, s.fuse_tokens);
  $("deck").textContent = s.deck;
  $("pace").textContent = s.pace;
  $("pace-toggle").dataset.level = s.pace <= 0 ? "zero" : "ok";
  $("turn").textContent = s.over ? "" : fmt(T.turn_of, { player: s.players[s.current_player] });
  const finalRound = s.final_turns_left !== null && !s.over;
  $("final").hidden = !finalRound;
  $("final").textContent = finalRound ? fmt(T.final_turns, { n: s.final_turns_left }) : "";
  const changes = s.changes?.length ? s.changes : [s.last_event];
  renderAlert(s, changes);
  const alertShown = !$("alert").hidden;  // then the alert says it, not the event line
  const told = changes.filter((c) => eventText(c) && !(alertShown && ALERT_KINDS.includes(c.kind)));
  $("event").replaceChildren(...told.flatMap((c, i) => [...(i ? [" · "] : []), cardLine(c.params?.card, eventText(c))]));
  renderFireworks(s);
  renderDiscards(s);
  renderPending(s);
  renderNudge(s);
  renderReward(s);
  renderOver(s);
  renderPicker(s);
  renderAnnounce(s);
  renderLog(s);
  $("controls").hidden = s.over;
  maybeSwitchLanguage(s);
  refreshOled();
}

function renderAlert(s, told) {
  const changes = told.filter((c) => c && ALERT_KINDS.includes(c.kind));
  const key = `${s.game_id}:${s.actions}:${JSON.stringify(s.log.at(-1) ?? null)}`;
  if (alerting?.key !== key) alerting = changes.length ? { key, changes } : null;  // the next action ends it
  else for (const c of changes) if (!alerting.changes.some((a) => a.kind === c.kind)) alerting.changes.push(c);
  const show = Boolean(alerting) && !s.over && dismissed !== alerting.key;
  $("alert").hidden = !show;
  if (!show) return;
  $("alert-lines").replaceChildren(...alerting.changes.map((c) => {
    const p = el("p", "alert-line");
    p.append(cardLine(c.params.card, eventText(c)));
    return p;
  }));
}

function dismissAlert() {
  dismissed = alerting?.key ?? null;
  render(state);  // the event line takes the alert's words back
}

function renderFireworks(s) {
  $("fireworks").replaceChildren(...[...s.suits].map((suit) => {
    const top = s.fireworks[suit];
    const c = suitTile(el("div", `big${top ? "" : " empty"}`, top ? String(top) : "–"), suit);
    c.title = boot.suits[suit];
    return c;
  }));
}

function renderDiscards(s) {
  const rows = [...s.suits].map((suit) => {
    const cards = s.discards.filter((c) => c[0] === suit).sort();
    const row = el("div", "discard-row");
    row.append(el("span", `suit-label suit-${suit}`, boot.suits[suit]));
    row.append(...cards.map((c) => cardEl(c, s.critical.includes(c) ? "mini last" : "mini")));
    return cards.length ? row : null;
  }).filter(Boolean);
  $("discards").replaceChildren(...(rows.length ? rows : [el("p", "empty", T.empty)]));
  const lost = s.critical.filter((c) => s.discards.includes(c));
  $("legend").hidden = !lost.length;
  $("critical").textContent = lost.length ? fmt(T.last_copies, { cards: lost.map(cardName).join(", ") }) : "";
}

function renderPending(s) {
  const p = s.pending;
  $("pending").hidden = !p;
  if (!p) return;
  $("pending-card").replaceChildren(cardEl(p.card, "mini"));
  $("pending-text").textContent = fmt(T.unsure, { card: cardName(p.card) });
  const others = p.candidates.filter((c) => c !== p.card);
  $("pending-others").hidden = !others.length;
  $("pending-candidates").replaceChildren(...others.map((c) => {
    const b = el("button", "candidate");
    b.type = "button";
    b.append(cardEl(c, "mini"));
    b.addEventListener("click", () => send({ type: "confirm", card: c }));
    return b;
  }));
}

function renderNudge(s) {
  const show = s.suggest_teaching && localStorage.getItem(NUDGE_CLOSED) !== String(s.game_id);
  $("teach-nudge").hidden = !show;
  if (show) $("teach-nudge-text").textContent = fmt(T.teach_nudge, { asked: s.asked, laid: s.cards_shown });
}

function renderReward(s) {
  $("reward").hidden = !s.pending_reward;
  if (!s.pending_reward) return;
  $("reward-tiles").replaceChildren(...s.reward_tiles_left.map((tile) => {
    const b = el("button", "tile", T[`tile_${tile}`] ?? tile);
    b.type = "button";
    b.dataset.tile = tile;
    b.addEventListener("click", () => {
      const takesCard = (tile === "rescue" || tile === "reshuffle") && picked;
      send(takesCard ? { type: "reward", tile, card: picked } : { type: "reward", tile });
    });
    return b;
  }));
}

function renderOver(s) {
  $("over").hidden = !s.over;
  document.body.classList.toggle("game-over", s.over);
  if (!s.over) return;
  $("over-title").textContent = T[s.outcome] ?? s.outcome;
  $("over-score").textContent = s.score;
  $("over-max").textContent = s.max_score;
  $("over-rating").textContent = boot.ratings[s.rating_key] ?? s.rating;
  $("over-reason").textContent = s.reason_key ? T[`reason_${s.reason_key}`] : (s.reason ?? "");
  $("export").hidden = s.game_id === null;  // a box without a store keeps no game to export
  $("export").href = `/api/games/${s.game_id}/log?download=1`;
}

function renderPicker(s) {
  const box = $("picker");
  if (!box || box.dataset.suits === s.suits) return;  // no picker until this phone is paired
  box.dataset.suits = s.suits;
  box.replaceChildren(...[...s.suits].map((suit) => {
    const row = el("div", "pick-row");
    for (let v = 1; v <= 5; v++) {
      const b = suitTile(el("button", "pick", String(v)), suit);
      b.type = "button";
      b.dataset.card = `${suit}${v}`;
      b.title = cardName(b.dataset.card);
      b.addEventListener("click", () => pick(b.dataset.card));
      row.append(b);
    }
    return row;
  }));
  pick(null);
}

function renderAnnounce(s) {
  const box = $("announce");
  const on = Boolean(box && s.variant_options?.synchronized_show);
  if (box) box.hidden = !on;
  if (!on || box.dataset.suits === s.suits) return;
  box.dataset.suits = s.suits;
  const choices = [null, ...[...s.suits].filter((suit) => suit !== "k")];  // black is never announced
  $("announce-suits").replaceChildren(...choices.map((suit) => {
    const b = suit ? suitTile(el("button", "pick", ""), suit) : el("button", "pick", "–");
    b.type = "button";
    b.dataset.announce = suit ?? "";
    b.title = suit ? boot.suits[suit] : T.no_announce;
    b.addEventListener("click", () => announce(suit));
    return b;
  }));
  announce(null);
}

function announce(suit) {
  announced = suit;
  for (const b of document.querySelectorAll("#announce-suits button")) {
    b.classList.toggle("chosen", b.dataset.announce === (suit ?? ""));
  }
}

function pick(card) {
  picked = card;
  for (const b of document.querySelectorAll("#picker .pick")) b.classList.toggle("chosen", b.dataset.card === card);
  for (const p of document.querySelectorAll(".picked")) p.textContent = card ? cardName(card) : "";
  if (state) renderLog(state);
}

function renderLog(s) {
  $("log").replaceChildren(...s.log.map((a, i) => {
    const li = el("li", `entry ${a.type}`);
    li.dataset.n = `${i}.`;
    li.append(el("span", "what", T[`act_${a.type}`] ?? a.type));
    if (a.card) li.append(cardEl(a.card, "mini"));
    if (a.card && !s.over && $("picker") && (a.type === "play" || a.type === "discard")) {
      const b = el("button", "fix", picked ? fmt(T.correct_to, { card: cardName(picked) }) : "✎");
      b.type = "button";
      b.disabled = !picked || picked === a.card;
      b.addEventListener("click", () => send({ type: "correct", index: i, card: picked }));
      li.append(b);
    }
    return li;
  }).reverse());
}

function maybeSwitchLanguage(s) {
  const chosen = document.cookie.split("; ").some((c) => c.startsWith("lang="))
    || new URLSearchParams(location.search).has("lang");
  if (!chosen && s.lang && s.lang !== boot.lang) location.reload();
}

function refreshOled() {
  const img = $("oled");
  if (img) img.src = `/oled.png?t=${Date.now()}`;
}

function showError(message, needPin = false) {
  const box = $("error");
  box.hidden = !message;
  box.replaceChildren();
  if (!message) return;
  box.append(message);
  if (needPin) {
    const a = el("a", "", " PIN →");
    a.href = `/pin?next=${encodeURIComponent(location.pathname)}`;
    box.append(a);
  }
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const data = await r.json().catch(() => ({}));
  if (r.ok) {
    showError("");
    if (data.state) render(data.state);
    return true;
  }
  showError(r.status === 401 ? T.need_pin : (data.error ?? `HTTP ${r.status}`), r.status === 401 || r.status === 403);
  return false;
}

function send(action) {
  return post("/api/actions", action);
}

function command(kind) {
  if (kind === "hint" || kind === "undo") return send({ type: kind });
  if (kind === "end") return confirm(T.confirm_end) && send({ type: "end" });
  if (!picked) return showError(T.pick_card);
  const action = kind === "play" && announced ? { type: kind, card: picked, announce: announced } : { type: kind, card: picked };
  return send(action).then((ok) => ok && (pick(null), announce(null)));
}

// The buttons are served disabled, so a tap before this script runs is not silently lost.
for (const b of document.querySelectorAll("[data-act]")) {
  b.addEventListener("click", () => command(b.dataset.act));
  b.disabled = false;
}
for (const b of document.querySelectorAll("[data-button]")) {
  b.addEventListener("click", () => post(`/api/buttons/${b.dataset.button}`).then(refreshOled));
  b.disabled = false;
}
$("pending-ok").addEventListener("click", () => send({ type: "confirm" }));
$("pending-no").addEventListener("click", () => send({ type: "undo" }));
$("alert-close").addEventListener("click", dismissAlert);
$("teach-nudge-close").addEventListener("click", () => {
  localStorage.setItem(NUDGE_CLOSED, String(state.game_id));
  render(state);
});
$("pace-toggle").addEventListener("click", () => {
  const open = $("pace-help").hidden;
  $("pace-help").hidden = !open;
  $("pace-toggle").setAttribute("aria-expanded", String(open));
});

function connect() {
  const conn = $("conn");
  const source = new EventSource("/api/events");
  source.addEventListener("state", (e) => render(JSON.parse(e.data)));
  source.addEventListener("open", () => { conn.dataset.state = "live"; conn.textContent = T.live; });
  source.addEventListener("error", () => {
    conn.dataset.state = "offline";
    conn.textContent = T.offline;
    // The browser retries by itself unless the server refused the stream (e.g. all slots busy).
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
  });
}

connect();
