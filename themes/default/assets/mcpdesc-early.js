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
    if (version) html.dataset.versionView = version;
  } catch (e) { /* storage unavailable: defaults apply */ }
})();
