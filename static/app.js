// Progressive enhancement only: every page works without this file.
// - drag and drop a file onto a checkpoint or parent field;
// - "copy link" buttons copy the absolute URL of a section or object.
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

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy-link]");
    if (!button) return;
    var url = new URL(button.getAttribute("data-copy-link"), window.location.href).href;
    var done = function () {
      var label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { window.location.hash = new URL(url).hash; });
    } else {
      window.location.hash = new URL(url).hash;
    }
  });

  // Copy-link buttons do nothing without JavaScript, so they stay hidden until now.
  document.documentElement.classList.add("js");
})();
