// An inline formula wider than its line is cut off on a phone (MathJax 3 does not break inline
// math): such a formula gets its own box that scrolls sideways (book.css, .cfr-wide-math), as
// display equations and tables already do. Measured once MathJax has typeset the page, and again
// when the window's width changes.
(() => {
  function mark() {
    for (const math of document.querySelectorAll('mjx-container:not([display="true"])')) {
      math.classList.remove("cfr-wide-math");
      const block = math.parentElement.closest("p, li, td, th, dd, div, figcaption");
      const box = math.getBoundingClientRect(), line = block && block.getBoundingClientRect();
      if (block && (box.width > block.clientWidth || box.right > line.right + 1)) {
        math.classList.add("cfr-wide-math");
      }
    }
  }
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(mark, 200); };
  window.addEventListener("load", () => {
    const ready = window.MathJax && MathJax.startup && MathJax.startup.promise;
    (ready || Promise.resolve()).then(mark);
    window.addEventListener("resize", later);
  });
})();
