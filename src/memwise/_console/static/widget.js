// memwise web chat widget. Embed on a page with
//   <script src="https://memwise.example/widget.js" data-conversation="cv_…" data-token="vt_…"></script>
// The host application's server creates the conversation and its visitor token. The thread
// lives in this tab only (a variable: nothing in localStorage, cookies or the URL); each
// request sends the last 20 messages; Reset clears the thread and the server-side window.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var conversation = script.getAttribute("data-conversation");
  var token = script.getAttribute("data-token");
  var api = (script.getAttribute("data-api") || new URL(script.src).origin + "/").replace(/\/?$/, "/");
  var title = script.getAttribute("data-title") || "Chat with us";
  var KEEP = 20;
  var thread = [];

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var style = el("style");
  style.textContent =
    ".mw-widget{font:14px/1.4 system-ui,sans-serif;width:340px;max-width:100%;border:1px solid #d5dae3;border-radius:12px;background:#fff;display:flex;flex-direction:column;box-shadow:0 6px 24px rgba(0,0,0,.08)}" +
    ".mw-floating{position:fixed;right:16px;bottom:16px;z-index:2147483000}" +
    ".mw-head{display:flex;justify-content:space-between;align-items:center;padding:.55rem .8rem;border-bottom:1px solid #eef0f4;font-weight:600}" +
    ".mw-head button{font:inherit;font-weight:400;color:#1d2330;background:none;border:1px solid #c9ced8;border-radius:6px;padding:.1rem .5rem;cursor:pointer}" +
    ".mw-log{height:320px;overflow-y:auto;padding:.6rem .8rem;display:flex;flex-direction:column;gap:.45rem}" +
    ".mw-msg{max-width:85%;padding:.4rem .6rem;border-radius:10px;white-space:pre-wrap;word-wrap:break-word}" +
    ".mw-user{align-self:flex-end;background:#2456d6;color:#fff}.mw-assistant{align-self:flex-start;background:#f0f2f6}" +
    ".mw-sources{font-size:12px;color:#6b7385;margin-top:.3rem}.mw-sources a{color:#2456d6}" +
    ".mw-handoff{font-size:12px;color:#a06300;margin-top:.3rem}.mw-error{align-self:center;color:#b3261e;font-size:12px}" +
    ".mw-form{display:flex;gap:.4rem;padding:.6rem;border-top:1px solid #eef0f4}" +
    ".mw-form input{flex:1;font:inherit;padding:.35rem .5rem;border:1px solid #c9ced8;border-radius:6px}" +
    ".mw-form button{font:inherit;background:#2456d6;color:#fff;border:0;border-radius:6px;padding:.35rem .8rem;cursor:pointer}";
  document.head.appendChild(style);

  var box = el("div", "mw-widget");
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", title);
  var head = el("div", "mw-head");
  head.appendChild(el("span", "", title));
  var reset = el("button", "mw-reset", "Reset");
  reset.type = "button";
  reset.title = "Start over: clears this conversation here and on the server";
  head.appendChild(reset);
  var log = el("div", "mw-log");
  log.setAttribute("aria-live", "polite");
  var form = el("form", "mw-form");
  var input = el("input");
  input.name = "message";
  input.placeholder = "Type a message";
  input.setAttribute("aria-label", "Message");
  input.autocomplete = "off";
  var send = el("button", "", "Send");
  send.type = "submit";
  form.appendChild(input);
  form.appendChild(send);
  box.appendChild(head);
  box.appendChild(log);
  box.appendChild(form);

  var target = script.getAttribute("data-target");
  var host = target ? document.getElementById(target) : null;
  if (host) host.appendChild(box);
  else { box.classList.add("mw-floating"); document.body.appendChild(box); }

  function show(role, text, extra) {
    var bubble = el("div", "mw-msg mw-" + role, text);
    if (extra) bubble.appendChild(extra);
    log.appendChild(bubble);
    log.scrollTop = log.scrollHeight;
    return bubble;
  }

  function details(reply) {
    var wrap = el("div");
    var sources = (reply.sources || []).filter(function (s) { return s.title || s.source_url; });
    if (sources.length) {
      var line = el("div", "mw-sources", "Source: ");
      sources.forEach(function (s, i) {
        if (i) line.appendChild(document.createTextNode(", "));
        var url = s.source_url && /^https?:\/\//.test(s.source_url) ? s.source_url : null;
        var item = url ? el("a", "", s.title || url) : el("span", "", s.title);
        if (url) { item.href = url; item.target = "_blank"; item.rel = "noopener"; }
        line.appendChild(item);
      });
      wrap.appendChild(line);
    }
    if (reply.handoff) {
      var note = reply.ticket && reply.ticket.id ? "Passed to our team (ticket " + reply.ticket.id + ")." : "Passed to our team.";
      wrap.appendChild(el("div", "mw-handoff", note));
    }
    return wrap.childNodes.length ? wrap : null;
  }

  function call(path, body) {
    return fetch(api + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) throw new Error((data.error && data.error.message) || "The request failed.");
        return data;
      });
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = "";
    var earlier = thread.slice(-KEEP);
    thread.push({ role: "user", text: text });
    show("user", text);
    send.disabled = true;
    call("v1/chat", { conversation_id: conversation, text: text, messages: earlier, page: { url: location.href, title: document.title } })
      .then(function (reply) {
        thread.push({ role: "assistant", text: reply.reply });
        show("assistant", reply.reply, details(reply));
      })
      .catch(function (err) { log.appendChild(el("div", "mw-error", err.message || "Could not reach us; please try again.")); })
      .then(function () { send.disabled = false; input.focus(); });
  });

  reset.addEventListener("click", function () {
    call("v1/conversations/" + encodeURIComponent(conversation) + "/reset")
      .catch(function () {})
      .then(function () {
        thread = [];
        while (log.firstChild) log.removeChild(log.firstChild);
        input.focus();
      });
  });
})();
