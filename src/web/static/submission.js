// Keeps a submission's page current while it is judged: polls the page's
// live status (the URL in the `data-live` attribute) and updates the
// verdict, state, progress (testcases judged out of how many), message,
// testcase table and compiler output in place, and appends the events the
// log does not show yet (it asks only for those, by how many it shows).
// Everything shown is set as text, never as HTML.
"use strict";

(function () {
  const root = document.getElementById("submission");
  if (!root) {
    return;
  }
  const url = root.dataset.live;
  const interval = 500;

  function text(tag, value, className) {
    const element = document.createElement(tag);
    if (className) {
      element.className = className;
    }
    element.textContent = value == null ? "" : String(value);
    return element;
  }

  function row(result) {
    const tr = document.createElement("tr");
    const name = text("td", result.testcase);
    if (result.hidden) {
      name.append(" ", text("span", "(hidden)", "muted"));
    }
    const verdict = document.createElement("td");
    verdict.append(text("span", result.verdict, "verdict verdict-" + result.verdict));
    const message = text("td", result.message, "message");
    if (result.detail) {
      message.append(text("div", result.detail, "detail"));
    }
    tr.append(name, verdict, text("td", result.time, "num"), text("td", result.memory, "num"), message);
    return tr;
  }

  function event(entry) {
    const li = document.createElement("li");
    li.append(text("span", entry.time, "muted"), " ", text("strong", entry.kind));
    if (entry.actor != null) {
      li.append(" by " + entry.actor);
    }
    if (entry.detail != null) {
      li.append(": " + entry.detail);
    }
    return li;
  }

  function show(status) {
    const verdict = document.getElementById("verdict");
    const done = status.state === "done" && status.verdict;
    verdict.textContent = done ? status.verdict : status.state_label;
    verdict.className = "verdict " + (done ? "verdict-" + status.verdict : "verdict-pending");
    document.getElementById("state").textContent = status.state_label;
    document.getElementById("score").textContent = status.score_text;
    document.getElementById("message").textContent = status.message || "";
    root.dataset.state = status.state;

    const progress = document.getElementById("progress");
    if (status.state === "done") {
      const total = Math.max(status.results.length, 1);
      progress.max = total;
      progress.value = total;
    } else if (status.state === "running" && status.progress) {
      progress.max = Math.max(status.progress.total, 1);
      progress.value = status.progress.done;
    } else if (status.state === "running") {
      progress.removeAttribute("value");
    }
    document.getElementById("progress-text").textContent = status.progress_text || "";
    document.getElementById("events").append(...status.events.map(event));

    const body = document.querySelector("#results tbody");
    body.replaceChildren(...status.results.map(row));
    const empty = document.getElementById("no-results");
    if (empty) {
      empty.hidden = status.results.length > 0;
      if (status.state === "done") {
        empty.textContent = "No per-testcase results to show.";
      }
    }
    const compile = document.getElementById("compile-section");
    if (status.compile_output) {
      document.getElementById("compile-output").textContent = status.compile_output;
      compile.hidden = false;
    }
  }

  async function poll() {
    try {
      const shown = document.getElementById("events").children.length;
      const response = await fetch(url + "?events_from=" + shown, { headers: { Accept: "application/json" }, cache: "no-store" });
      const type = response.headers.get("Content-Type") || "";
      if (!response.ok || !type.startsWith("application/json")) {
        // Signed out or gone: stop, the next reload shows why.
        return;
      }
      const status = await response.json();
      show(status);
      if (status.state === "done") {
        return;
      }
    } catch (error) {
      // A dropped connection: try again.
    }
    setTimeout(poll, interval);
  }

  if (root.dataset.state !== "done") {
    setTimeout(poll, interval);
  }
})();
