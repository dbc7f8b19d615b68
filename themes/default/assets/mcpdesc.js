// mcpdesc-docs default theme: small enhancements only; every page reads without this file.
(function () {
  "use strict";
  // Copy buttons beside commands, endpoints and URL-mode URLs. The text is read from the
  // element at click time, never placed in an attribute.
  document.querySelectorAll("[data-copy]").forEach(function (element) {
    if (!navigator.clipboard) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = "Copy";
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(element.textContent || "").then(function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      });
    });
    element.insertAdjacentElement("afterend", button);
  });
})();
