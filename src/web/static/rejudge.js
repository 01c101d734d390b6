// Follows a problem's rejudge on its testcase page: polls how many of the
// problem's submissions are still queued or being judged (the URL in the
// `data-live` attribute) and moves the progress bar over the submissions the
// rejudge queued (`data-queued`) until none is left. Text only, never HTML.
"use strict";

(function () {
  const root = document.getElementById("rejudge-progress");
  if (!root) {
    return;
  }
  const url = root.dataset.live;
  const queued = Number(root.dataset.queued);
  const bar = document.getElementById("rejudge-bar");
  const status = document.getElementById("rejudge-status");
  const interval = 500;

  function show(unjudged) {
    const judged = Math.max(0, queued - unjudged);
    bar.value = judged;
    if (unjudged === 0) {
      status.textContent = "Rejudge finished: every submission of this problem is judged.";
      root.dataset.done = "true";
      return true;
    }
    status.textContent =
      judged + " of " + queued + " judged; " + unjudged + " queued or being judged";
    return false;
  }

  function poll() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        return response.json();
      })
      .then(function (body) {
        if (!show(Number(body.unjudged))) {
          setTimeout(poll, interval);
        }
      })
      .catch(function (error) {
        status.textContent = "Progress unavailable (" + error.message + "); reload to retry.";
      });
  }

  poll();
})();
