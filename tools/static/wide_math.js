// An inline formula wider than its line is cut off on a phone (MathJax 3 does not break inline
// math): such a formula gets its own box that scrolls sideways (book.css, .cfr-wide-math), as
// display equations and tables already do. A formula that fits its line keeps the punctuation
// written right after it (",", ".", ")" ...) on its line (span.cfr-math-glue, book.css): on a
// phone a line began with the "), player 0 passes" of "(1/6)" 55 times in the book. Measured once
// MathJax has typeset the page, and again when the window's width changes.
(() => {
  const PUNCTUATION = /^[,.;:!?)\]]+/;
  const ROOM = 16;   // px a glued formula leaves on its line for the punctuation

  function holder(math) {   // the formula's own element, the theme's span.math when it has one
    return math.parentElement.matches("span.math") ? math.parentElement : math;
  }

  function glue(math) {
    const own = holder(math);
    if (own.parentElement.classList.contains("cfr-math-glue")) { return; }
    const next = own.nextSibling;
    const found = next && next.nodeType === Node.TEXT_NODE && next.textContent.match(PUNCTUATION);
    if (!found) { return; }
    if (next.textContent.length > found[0].length) { next.splitText(found[0].length); }
    const span = document.createElement("span");
    span.className = "cfr-math-glue";
    own.before(span);
    span.append(own, next);
  }

  function unglue(math) {
    const span = holder(math).parentElement;
    if (span.classList.contains("cfr-math-glue")) { span.replaceWith(...span.childNodes); }
  }

  function mark() {
    for (const math of document.querySelectorAll('mjx-container:not([display="true"])')) {
      math.classList.remove("cfr-wide-math");
      const block = math.parentElement.closest("p, li, td, th, dd, div, figcaption");
      if (!block) { continue; }
      if (math.getBoundingClientRect().width > block.clientWidth - ROOM) { unglue(math); } else { glue(math); }
      const box = math.getBoundingClientRect(), line = block.getBoundingClientRect();
      if (box.width > block.clientWidth || box.right > line.right + 1) {
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
