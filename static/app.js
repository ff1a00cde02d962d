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
    if (!button) return;
    // Without a clipboard (a page served over plain http), open what it would have copied.
    var fallback = button.getAttribute("data-copy-fallback");
    var open = function () { if (fallback) window.location.href = fallback; };
    if (!navigator.clipboard || !window.isSecureContext) { open(); return; }
    navigator.clipboard.writeText(button.getAttribute("data-copy-text")).then(function () {
      copied(button);
    }, open);
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

  // A link into a folded section unfolds it (Chromium does so itself on navigation; this
  // covers the others, and a page opened at an address with a fragment).
  function unfold(id) {
    var target = id ? document.getElementById(id) : null;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    return target;
  }
  function unfoldHash() {
    if (location.hash.length > 1) {
      try { unfold(decodeURIComponent(location.hash.slice(1))); } catch (e) { /* a malformed fragment */ }
    }
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest('a[href^="#"]');
    if (link) unfold(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  window.addEventListener("hashchange", unfoldHash);
  unfoldHash();
  // A printed review has every section the print style sheet keeps.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });

  // Times: each <time class="when"> holds a timestamp as the document recorded it and, in its
  // datetime, the same instant in UTC; shown in the reader's local time, with the UTC value
  // beside it and its age (unless the page states it: data-aged). The recorded text stays
  // in the title.
  var units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
    ["hour", 3600], ["minute", 60], ["second", 1]];
  function age(seconds) {
    if (!window.Intl || !Intl.RelativeTimeFormat) return "";
    var words = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    for (var i = 0; i < units.length; i++) {
      if (Math.abs(seconds) >= units[i][1] || units[i][0] === "second") {
        return words.format(-Math.round(seconds / units[i][1]), units[i][0]);
      }
    }
    return "";
  }
  document.querySelectorAll("time.when[datetime]").forEach(function (el) {
    var moment = new Date(el.getAttribute("datetime"));
    if (isNaN(moment.getTime()) || !window.Intl) return;
    var recorded = el.textContent;
    var local = new Intl.DateTimeFormat(undefined, {
      year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
      timeZoneName: "short"
    }).format(moment);
    var utc = moment.toISOString().slice(0, 16).replace("T", " ") + " UTC";
    // the UTC value beside the local one, unless the reader's time is UTC at that moment
    var text = moment.getTimezoneOffset() === 0 ? local : local + " (" + utc + ")";
    if (!el.hasAttribute("data-aged")) {
      var words = age((Date.now() - moment.getTime()) / 1000);
      if (words) text += ", " + words;
    }
    el.textContent = text;
    el.title = "as recorded: " + recorded;
  });

  // The statement filter, at once: a choice hides the listed statements that do not match.
  // Its button still asks the service, which also lists those past a list's first 150.
  var filters = document.querySelector("form.filters");
  if (filters) {
    var said = filters.querySelector(".filter-status");
    filters.addEventListener("change", function () {
      var want = {};
      filters.querySelectorAll("select[data-filter]").forEach(function (select) {
        want[select.getAttribute("data-filter")] = select.value;
      });
      var shown = 0, listed = 0;
      document.querySelectorAll("#statements section.origin").forEach(function (section) {
        var off = (want.kind && section.getAttribute("data-kind") !== want.kind) ||
          (want.origin && section.getAttribute("data-origin") !== want.origin);
        var here = 0;
        section.querySelectorAll("li.statement").forEach(function (card) {
          var hide = off || (want.status && card.getAttribute("data-status") !== want.status);
          card.classList.toggle("filtered-out", !!hide);
          listed++;
          if (!hide) here++;
        });
        section.classList.toggle("filtered-out", here === 0);
        shown += here;
      });
      document.querySelectorAll("#statements section.kind").forEach(function (kind) {
        kind.classList.toggle("filtered-out", !kind.querySelector("section.origin:not(.filtered-out)"));
      });
      if (said) said.textContent = shown + " of the " + listed + " statements listed on this page match.";
      // A stored page is its own address: the choice goes into it, so the filtered view can
      // be sent as a link (an unsaved page's selects belong to its Share form: it has none).
      if (!filters.querySelector("select[form]") && window.history.replaceState) {
        var url = new URL(window.location.href);
        filters.querySelectorAll("select[data-filter]").forEach(function (select) {
          if (select.value) url.searchParams.set(select.name, select.value);
          else url.searchParams.delete(select.name);
        });
  }

  // Keys: j and k move to the next and the previous finding, as in a code review.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.key !== "j" && event.key !== "k") return;
    var typing = event.target.closest("input, textarea, select, [contenteditable]");
    if (typing) return;
    var findings = Array.prototype.slice.call(document.querySelectorAll("ol.findings > li[id]"));
    if (!findings.length) return;
    var at = findings.indexOf(document.activeElement ? document.activeElement.closest("ol.findings > li[id]") : null);
    var next = event.key === "j" ? at + 1 : (at < 0 ? findings.length - 1 : at - 1);
    if (next < 0 || next >= findings.length) return;
    var item = findings[next];
    unfold(item.id);
    item.setAttribute("tabindex", "-1");
    item.focus();
    event.preventDefault();
  });

  // Copy-link buttons do nothing without JavaScript, so they stay hidden until now.
  document.documentElement.classList.add("js");
  var canonicalLink = document.querySelector('link[rel="canonical"]');
  var canonical = canonicalLink ? canonicalLink.href : null;
  if (canonical) document.documentElement.classList.add("js-copy");
})();
