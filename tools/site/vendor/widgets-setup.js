// Loaded after RequireJS and before the ipywidgets HTML manager (see tools/offline_assets.py).
(function () {
  "use strict";
  var script = document.currentScript;
  // 1. The manager's bundle defines the modules @jupyter-widgets/base, /controls and
  //    /html-manager/dist/libembed-amd, and each finds its fonts next to the URL RequireJS gives
  //    the module; map those module paths to where the bundle really is (data-manager-base,
  //    relative to this script) instead of the page's own folder.
  var base = new URL(script.getAttribute("data-manager-base"), script.src).href.replace(/\/$/, "");
  if (window.require && window.require.config) {
    window.require.config({
      paths: { "@jupyter-widgets/html-manager/dist": base, "@jupyter-widgets": base },
    });
  }
  // 2. The manager typesets widget labels through the MathJax 2 API (MathJax.Hub.Queue); the
  //    book loads MathJax 3, which replaces window.MathJax when it starts, so add the one call
  //    once the deferred MathJax script has run.
  function addHub() {
    var mj = window.MathJax;
    if (!mj || mj.Hub || !mj.version) return;  // no MathJax, or only its configuration yet
    mj.Hub = {
      Queue: function () {
        Array.prototype.forEach.call(arguments, function (job) {
          if (!Array.isArray(job) || job[0] !== "Typeset") return;
          var elements = job[2] ? [job[2]] : undefined;
          var ready = (mj.startup && mj.startup.promise) || Promise.resolve();
          ready.then(function () { return mj.typesetPromise(elements); }).catch(function (err) {
            console.warn("MathJax could not typeset a widget label:", err);
          });
        });
      },
    };
  }
  document.addEventListener("DOMContentLoaded", addHub);
  window.addEventListener("load", addHub);
})();
