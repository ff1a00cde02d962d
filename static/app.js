// Progressive enhancement only: every page works without this file.
// - drag and drop a file onto a checkpoint or parent field;
// - "copy link" buttons copy the absolute URL of a section or object of a page that has an
//   address of its own (a permalink, named by <link rel="canonical">); an unsaved page, the
//   answer to a POST, has none, so there they stay hidden.
(function () {
  "use strict";

  function fillFromFile(fieldset, file) {
    var input = fieldset.querySelector('input[type="file"]');
    if (!input || !file) return;
    var transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    var status = fieldset.querySelector(".drop-status");
    if (!status) {
      status = document.createElement("p");
      status.className = "drop-status";
      status.setAttribute("role", "status");
      fieldset.appendChild(status);
    }
    status.textContent = "Chosen: " + file.name;
  }

  document.querySelectorAll("[data-drop-target]").forEach(function (fieldset) {
    fieldset.addEventListener("dragover", function (event) {
      event.preventDefault();
      fieldset.classList.add("dragging");
    });
    fieldset.addEventListener("dragleave", function () {
      fieldset.classList.remove("dragging");
    });
    fieldset.addEventListener("drop", function (event) {
      event.preventDefault();
      fieldset.classList.remove("dragging");
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length) fillFromFile(fieldset, files[0]);
    });
  });

  function copied(button) {
    var label = button.textContent;
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = label; }, 1500);
  }

  // "copy" buttons beside a permalink or a token copy their data-copy-text.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy-text]");
    if (!button || !navigator.clipboard || !window.isSecureContext) return;
    navigator.clipboard.writeText(button.getAttribute("data-copy-text")).then(function () {
      copied(button);
    });
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy-link]");
    if (!button || !canonical) return;
    var url = new URL(button.getAttribute("data-copy-link"), canonical).href;
    var done = function () { copied(button); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { window.location.hash = new URL(url).hash; });
    } else {
      window.location.hash = new URL(url).hash;
    }
  });

  // The live findings panel: when a check could not be made (the service refused the request
  // or could not be reached), say so in place of the last verdict, never keep it.
  function liveFailed(text) {
    var live = document.getElementById("live");
    if (!live) return;
    var p = document.createElement("p");
    p.className = "live-refused";
    p.setAttribute("role", "status");
    p.textContent = text;
    live.replaceChildren(p);
  }
  document.body.addEventListener("htmx:responseError", function (event) {
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    liveFailed("Not checked: the service answered " + status + ". Use the button to see why.");
  });
  document.body.addEventListener("htmx:sendError", function () {
    liveFailed("Not checked: the service could not be reached.");
  });

  // Copy-link buttons do nothing without JavaScript, so they stay hidden until now.
  document.documentElement.classList.add("js");
  var canonicalLink = document.querySelector('link[rel="canonical"]');
  var canonical = canonicalLink ? canonicalLink.href : null;
  if (canonical) document.documentElement.classList.add("js-copy");
})();
