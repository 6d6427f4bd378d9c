// The setup page's speech switch: turns the box's spoken announcements on or off through the API.
const box = document.getElementById("speech");
const missing = document.getElementById("speech-missing");
const error = document.getElementById("speech-error");

box.addEventListener("change", async () => {
  const wanted = box.checked;
  box.disabled = true;
  const r = await fetch("/api/speech", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ on: wanted }),
  });
  if (r.status === 401) {
    location.href = "/pin?next=/setup";
    return;
  }
  const data = await r.json().catch(() => ({}));
  const noEngine = data.reason === "no_engine";  // espeak-ng is not on the box: the page's own words say so
  box.checked = r.ok ? data.on : !wanted;
  box.disabled = noEngine;
  missing.hidden = !noEngine;
  error.textContent = r.ok || noEngine ? "" : (data.error ?? `HTTP ${r.status}`);
  error.hidden = r.ok || noEngine;
});
