// Asks before a form is sent whose `data-confirm` attribute says what it
// will do (rejudging a whole problem, deleting a testcase); nothing is sent
// unless the visitor agrees.
"use strict";

document.addEventListener("submit", function (event) {
  const question = event.target.dataset ? event.target.dataset.confirm : undefined;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
