// Puts a Copy button on each block of a problem page's statement and
// samples: it copies the block's text, as shown (textContent only, never
// HTML). Where the browser offers no clipboard (a page served over plain
// HTTP to another host), no button is added.
"use strict";

(function () {
  if (!navigator.clipboard) {
    return;
  }
  const blocks = document.querySelectorAll("#statement pre, #samples pre");
  blocks.forEach(function (block) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(block.textContent).then(
        function () { button.textContent = "Copied"; },
        function () { button.textContent = "Copy failed"; }
      );
    });
    block.before(button);
  });
})();
