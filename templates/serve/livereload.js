// Added by `mcpdesc-docs serve` only: reloads the page after the next rebuild (success or failure).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.EventSource) return;
  var url = script.getAttribute("data-events") + "?state=" + encodeURIComponent(script.getAttribute("data-state") || "");
  var events = new EventSource(url);
  events.addEventListener("change", function () {
    events.close();
    window.location.reload();
  });
})();
