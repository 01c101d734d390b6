// Keeps a contest page's scoreboard live: every ten seconds it fetches the
// page again and puts the new scoreboard and phase in place of the old.
// A failed fetch keeps the page as it is and tries again next time.
"use strict";

(function () {
  const board = document.getElementById("scoreboard");
  if (!board) {
    return;
  }
  async function refresh() {
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin" });
      if (!response.ok) {
        return;
      }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const id of ["scoreboard", "phase"]) {
        const fresh = page.getElementById(id);
        const old = document.getElementById(id);
        if (fresh && old) {
          old.replaceWith(fresh);
        }
      }
    } catch (e) {
      // Offline for a moment: the next round tries again.
    }
  }
  window.setInterval(refresh, 10000);
})();
