/* Batch printing: start a print job without leaving the page, then poll its
   progress endpoint and show a progress bar and the download link.
   Every .print-job element may carry data-progress-url; forms inside post
   with fetch (falling back to a normal submit when fetch fails). */
(function () {
  "use strict";
  var POLL_MS = 1000;

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function render(item, job) {
    var bar = item.querySelector(".print-progress");
    var state = item.querySelector(".print-state");
    var error = item.querySelector(".print-error");
    var link = item.querySelector(".print-download");
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
    var url = item.dataset.progressUrl;
    if (!url || item.dataset.polling === "1") { return; }
    item.dataset.polling = "1";
    var tick = function () {
      fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
        .then(function (job) {
          render(item, job);
          if (job.status === "queued" || job.status === "running") {
            window.setTimeout(tick, POLL_MS);
          } else {
            item.dataset.polling = "";
          }
        })
        .catch(function () { window.setTimeout(tick, POLL_MS * 5); });
    };
    tick();
  }

  function start(item, form, event) {
    if (!window.fetch) { return; }
    event.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken(form) },
      credentials: "same-origin"
    })
      .then(function (r) {
        return r.json().then(function (body) { return { ok: r.ok, body: body }; });
      })
      .then(function (answer) {
        button.disabled = false;
        if (!answer.ok) {
          item.querySelector(".print-error").textContent = answer.body.message || "";
          return;
        }
        item.dataset.progressUrl = answer.body.progress_url;
        render(item, answer.body);
        poll(item);
      })
      .catch(function () { button.disabled = false; form.submit(); });
  }

  document.querySelectorAll(".print-job").forEach(function (item) {
    var form = item.querySelector("form");
    if (form) {
      form.addEventListener("submit", function (event) { start(item, form, event); });
    }
    if (item.dataset.progressUrl) { poll(item); }
  });
})();
