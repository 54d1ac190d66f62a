// memwise console: confirms, the live rebuild banner, and the relations graph's search and legend.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-back]");
    if (link && window.history.length > 1) { event.preventDefault(); window.history.back(); }
  });

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box.hasAttribute && box.hasAttribute("data-autosubmit") && box.form) box.form.submit();
  });

  // The builder's upload: a text file is read in the browser into the form's text box (the
  // form stays url-encoded; nothing is sent until the person adds it as a draft).
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-read-into") || !input.files || !input.files[0]) return;
    var file = input.files[0], form = input.form;
    var target = form && form.querySelector(input.getAttribute("data-read-into"));
    if (!target) return;
    if (file.size > 400000) { window.alert("That file is larger than 400 kB: paste the part that matters."); input.value = ""; return; }
    var reader = new FileReader();
    reader.onload = function () {
      target.value = String(reader.result || "");
      var title = form.querySelector("input[name=title]");
      if (title && !title.value) title.value = file.name.replace(/\.[^.]+$/, "");
    };
    reader.readAsText(file);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // The banner follows a running rebuild on every page until it is done.
  var banner = document.getElementById("rebuild-banner");
  if (banner && banner.dataset.running === "yes") {
    var contact = banner.dataset.contact;
    var timer = window.setInterval(function () {
      fetch("/console/contacts/" + encodeURIComponent(contact) + "/rebuild/progress", { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (p) {
          if (!p) return;
          var done = banner.querySelector(".done"), total = banner.querySelector(".total");
          if (done) done.textContent = p.done;
          if (total) total.textContent = p.total;
          if (!p.running) {
            window.clearInterval(timer);
            banner.dataset.running = "no";
            banner.firstChild.textContent = "Rebuild finished: " + p.done + " of " + p.total + " conversations re-read. ";
          }
        })
        .catch(function () {});
    }, 2000);
  }

  var graph = document.getElementById("graph");
  if (graph) {
    var hidden = {};
    var refresh = function () {
      var gone = {};
      graph.querySelectorAll(".node").forEach(function (n) {
        var off = !!hidden[n.dataset.kind];
        n.classList.toggle("hidden", off);
        if (off) gone[n.dataset.id] = true;
      });
      graph.querySelectorAll(".edge").forEach(function (e) {
        e.classList.toggle("hidden", !!(gone[e.dataset.from] || gone[e.dataset.to]));
      });
    };
    document.querySelectorAll(".legend .kind").forEach(function (button) {
      button.addEventListener("click", function () {
        var kind = button.dataset.kind;
        hidden[kind] = !hidden[kind];
        button.setAttribute("aria-pressed", hidden[kind] ? "false" : "true");
        refresh();
      });
    });
    var search = document.getElementById("graph-search");
    if (search) {
      search.addEventListener("input", function () {
        var q = search.value.trim().toLowerCase();
        graph.classList.toggle("searching", q.length > 0);
        graph.querySelectorAll(".node").forEach(function (n) {
          n.classList.toggle("match", q.length > 0 && n.dataset.label.indexOf(q) >= 0);
        });
      });
    }
  }
})();
