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
        url.hash = "statements";
        window.history.replaceState(null, "", url.href);
      }
    });
  }

  // A live finding's line and column lead into the pasted text: the caret goes there, and
  // the text box scrolls to it (without JavaScript, the link goes to the text box).
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.pos[data-line]");
    if (!link) return;
    var box = document.getElementById("checkpoint");
    if (!box) return;
    var line = parseInt(link.getAttribute("data-line"), 10);
    var column = parseInt(link.getAttribute("data-column"), 10) || 1;
    var text = box.value, offset = 0;
    for (var n = 1; n < line; n++) {
      var end = text.indexOf("\n", offset);
      if (end < 0) break;
      offset = end + 1;
    }
    // columns count characters (code points); a string indexes UTF-16 units
    var chars = Array.from(text.slice(offset, offset + 4 * column)).slice(0, column - 1);
    offset += chars.join("").length;
    event.preventDefault();
    box.focus();
    box.setSelectionRange(offset, Math.min(text.length, offset + 1));
    var lineHeight = parseFloat(getComputedStyle(box).lineHeight) || 20;
    box.scrollTop = Math.max(0, (line - 3) * lineHeight);
  });

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

  // Search and fold (issue 27): the search box marks its matches as you type (the CSS Custom
  // Highlight API: no element is added to the page, and the text stays the document's), Next
  // and Previous (Enter, Shift+Enter) scroll to one and unfold its section; without the API
  // they still scroll to the card that holds it. The box's own button still asks the service,
  // which filters the cards (?q=), as it does without JavaScript.
  var searchTools = document.querySelector("[data-page-search]");
  if (searchTools) setUpSearch(searchTools);

  function setUpSearch(tools) {
    var box = tools.querySelector('input[name="q"]');
    var said = tools.querySelector(".search-count");
    var steps = tools.querySelectorAll("button[data-search-step]");
    var marks = window.CSS && CSS.highlights && window.Highlight ? CSS.highlights : null;
    // past this many, the count says "more than": a page of thousands of cards stays quick
    var most = 5000;
    var matches = [], current = -1, timer = 0, card = null;

    // Text a reader searches: the page's sections, less the source listing (the same words
    // again, as JSON), the tools themselves and what is hidden or is a control.
    var skip = "#source, .page-tools, dialog, nav.toc, button, select, script, style, [hidden], .filtered-out";
    function textNodes() {
      var root = document.getElementById("main");
      var walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
        acceptNode: function (node) {
          if (node.nodeType === 1) return node.matches(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
          return NodeFilter.FILTER_ACCEPT;
        }
      });
      var nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      return nodes;
    }

    // Lower case with, where lowering changes a text's length (İ), each folded character's
    // place in the original, so a match's range covers the text it was found in.
    function folded(text) {
      var lower = text.toLowerCase();
      if (lower.length === text.length) return { text: lower, at: null };
      var out = "", at = [];
      for (var i = 0; i < text.length; i++) {
        var one = text[i].toLowerCase();
        out += one;
        for (var j = 0; j < one.length; j++) at.push(i);
      }
      at.push(text.length);
      return { text: out, at: at };
    }

    function find(words) {
      var found = [];
      if (!words) return found;
      var nodes = textNodes();
      for (var n = 0; n < nodes.length && found.length < most; n++) {
        var f = folded(nodes[n].data);
        var from = f.text.indexOf(words);
        while (from !== -1 && found.length < most) {
          var range = document.createRange();
          var end = from + words.length;
          range.setStart(nodes[n], f.at ? f.at[from] : from);
          range.setEnd(nodes[n], f.at ? f.at[end] : end);
          found.push(range);
          from = f.text.indexOf(words, end);
        }
      }
      return found;
    }

    function count(n) { return n >= most ? "more than " + most.toLocaleString() : n.toLocaleString(); }

    function show() {
      if (marks) {
        marks.delete("search-current");
        var all = new Highlight();
        matches.forEach(function (range) { all.add(range); });
        marks.set("search", all);
        if (current >= 0) marks.set("search-current", new Highlight(matches[current]));
      }
      steps.forEach(function (button) { button.disabled = !matches.length; });
      if (!box.value.trim()) said.textContent = "";
      else if (!matches.length) said.textContent = "No matches";
      else if (current < 0) said.textContent = count(matches.length) + (matches.length === 1 ? " match" : " matches");
      else said.textContent = (current + 1).toLocaleString() + " of " + count(matches.length);
    }

    function update() {
      clearTimeout(timer);
      timer = 0;
      matches = find(box.value.trim().toLowerCase());
      current = -1;
      mark(null);
      show();
      said.removeAttribute("aria-busy");
    }

    // The card that holds a match: outlined, until another is.
    function mark(next) {
      if (card) card.classList.remove("search-card");
      card = next;
      if (card) card.classList.add("search-card");
    }

    function step(by) {
      if (timer) update();
      if (!matches.length) return;
      current = current < 0 ? (by > 0 ? 0 : matches.length - 1) : (current + by + matches.length) % matches.length;
      var range = matches[current];
      var node = range.startContainer.parentElement;
      for (var open = node; open; open = open.parentElement) {
        if (open.tagName === "DETAILS") open.open = true;
      }
      mark(node.closest(".card, li[id], article[id], section[id]") || node);
      node.scrollIntoView({ block: "center" });
      show();
    }

    box.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 120);
      // (the count is being worked out: a screen reader waits for it, as a test can)
      said.setAttribute("aria-busy", "true");
    });
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        step(event.shiftKey ? -1 : 1);
      } else if (event.key === "Escape" && box.value) {
        event.preventDefault();
        box.value = "";
        update();
      }
    });
    steps.forEach(function (button) {
      button.addEventListener("click", function () { step(Number(button.getAttribute("data-search-step"))); });
    });
    // a page with no service to ask (one that holds a credential carries no copy) filters here only
    if (tools.tagName === "FORM" && !tools.hasAttribute("action")) {
      tools.addEventListener("submit", function (event) { event.preventDefault(); step(1); });
    }
    if (box.value.trim()) update();
  }

  // "Collapse all" and "Expand all" fold or unfold every section and folded list of the page.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-fold]");
    if (!button) return;
    var open = button.getAttribute("data-fold") === "open";
    document.querySelectorAll("#main details").forEach(function (d) { d.open = open; });
  });

  // The shortcuts list: a native modal <dialog> (Escape closes it); focus goes back to where it was.
  var shortcuts = document.getElementById("shortcuts");
  var before = null;
  function showShortcuts() {
    if (!shortcuts || shortcuts.open) return;
    before = document.activeElement;
    shortcuts.showModal();
  }
  if (shortcuts) {
    shortcuts.addEventListener("close", function () {
      if (before && before.isConnected && before.focus) before.focus();
      before = null;
    });
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-shortcuts]")) showShortcuts();
  });

  // Keys: / goes to the search box, ? lists the shortcuts (never while typing in a field).
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.key !== "/" && event.key !== "?") return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable], dialog")) return;
    if (event.key === "?") {
      if (!shortcuts) return;
      showShortcuts();
    } else {
      var box = document.getElementById("search-q");
      if (!box) return;
      box.focus();
      box.select();
    }
    event.preventDefault();
  });

  // Copy-link buttons do nothing without JavaScript, so they stay hidden until now.
  document.documentElement.classList.add("js");
  var canonicalLink = document.querySelector('link[rel="canonical"]');
  var canonical = canonicalLink ? canonicalLink.href : null;
  if (canonical) document.documentElement.classList.add("js-copy");
})();
