/* Batch printing: start a print job without leaving the page, then poll its
   progress endpoint and show a progress bar and the download link.
   Every .print-job element may carry data-progress-url; forms inside post
   with fetch (falling back to a normal submit when fetch fails). */
import { Poller } from "./poller.js";

const POLL_MS = 1000;

function csrfToken(form) {
  const input = form.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function render(item, job) {
  const bar = item.querySelector(".print-progress");
  const state = item.querySelector(".print-state");
  const error = item.querySelector(".print-error");
  const link = item.querySelector(".print-download");
  bar.hidden = false;
  bar.value = job.percent;
  bar.textContent = job.percent + "%";
  state.textContent = job.status_label + (job.total ? " · " + job.progress + "/" + job.total : "");
  error.textContent = job.status === "failed" ? job.error : "";
  if (job.download_url) {
    link.href = job.download_url;
    link.hidden = false;
  } else {
    link.hidden = true;
  }
  item.dataset.status = job.status;
}

function poll(item) {
  const url = item.dataset.progressUrl;
  if (!url || item.dataset.polling === "1") return;
  item.dataset.polling = "1";
  const poller = new Poller({
    url,
    interval: POLL_MS,
    maxInterval: POLL_MS * 5,
    onData(job) {
      render(item, job);
      if (job.status !== "queued" && job.status !== "running") {
        poller.stop();
        item.dataset.polling = "";
      }
    },
  });
  poller.start({ immediate: true });
}

function start(item, form, event) {
  if (!window.fetch) return;
  event.preventDefault();
  const button = form.querySelector("button");
  button.disabled = true;
  fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { "Accept": "application/json", "X-CSRFToken": csrfToken(form) },
    credentials: "same-origin",
  })
    .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
    .then((answer) => {
      button.disabled = false;
      if (!answer.ok) {
        item.querySelector(".print-error").textContent = answer.body.message || "";
        return;
      }
      item.dataset.progressUrl = answer.body.progress_url;
      render(item, answer.body);
      poll(item);
    })
    .catch(() => { button.disabled = false; form.submit(); });
}

document.querySelectorAll(".print-job").forEach((item) => {
  const form = item.querySelector("form");
  if (form) form.addEventListener("submit", (event) => start(item, form, event));
  if (item.dataset.progressUrl) poll(item);
});
