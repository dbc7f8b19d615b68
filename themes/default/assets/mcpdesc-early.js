// Runs in <head> before the first paint: marks that scripts run and applies the remembered
// theme and protocol version, so neither flashes.
(function () {
  "use strict";
  var html = document.documentElement;
  html.classList.add("js");
  try {
    var theme = localStorage.getItem("mcpdesc-theme");
    if (theme === "light" || theme === "dark") html.dataset.theme = theme;
    var version = localStorage.getItem("mcpdesc-protocol-version");
    // Only a version this site offers a view of (another site on the same origin may have
    // remembered one of its own; a site with one version has no view at all).
    var offered = (html.getAttribute("data-versions") || "").split(" ");
    if (version && offered.indexOf(version) !== -1) html.dataset.versionView = version;
  } catch (e) { /* storage unavailable: defaults apply */ }
})();
