// Game setup: collects names, variant options and language, and starts the game through the API.
const form = document.getElementById("setup");
const error = document.getElementById("setup-error");

function body() {
  const names = [...form.querySelectorAll("input[name=player]")].map((i) => i.value.trim());
  const firstRow = Number(form.querySelector("input[name=first_player]:checked")?.value ?? 0);
  // Rows left empty are skipped; the starting player is counted among the filled rows.
  const players = names.filter(Boolean);
  const first = names.slice(0, firstRow).filter(Boolean).length;
  const options = {};
  for (const select of form.querySelectorAll("select.option")) {
    if (select.value !== "") options[select.name] = JSON.parse(select.value);
  }
  const preset = form.elements.preset.value;
  const variant = Object.keys(options).length ? { preset, ...options } : preset;
  return { players, variant, first_player: names[firstRow] ? first : 0, lang: form.elements.lang.value };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const r = await fetch("/api/games", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body()),
  });
  if (r.ok) {
    location.href = "/";
    return;
  }
  if (r.status === 401) {
    location.href = "/pin?next=/setup";
    return;
  }
  const data = await r.json().catch(() => ({}));
  error.textContent = data.error ?? `HTTP ${r.status}`;
  error.hidden = false;
});
// The button is served disabled: a tap before this script runs would reload the page and be lost.
form.querySelector("button[type=submit]").disabled = false;
