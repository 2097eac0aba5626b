/* Organiser forms: confirm dangerous actions (data-confirm) and stop a
 * double tap from sending a form twice (the button is disabled while the
 * request runs; data-busy gives its text meanwhile). No inline handlers (CSP). */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter || form.querySelector("button[type=submit]");
    var question = button && button.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    if (form.getAttribute("data-sent") === "1") {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "1");
    if (button) {
      var busy = button.getAttribute("data-busy");
      if (busy) { button.textContent = busy; }
      window.setTimeout(function () { button.disabled = true; }, 0);
    }
  });
  /* Back/forward cache: a restored page must be usable again. */
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
      form.querySelectorAll("button[disabled]").forEach(function (b) { b.disabled = false; });
    });
  });
})();
