// Code wraps instead of scrolling sideways (book.css). So that a wrapped line does not read as a
// new line of code, each line of a highlighted listing becomes a box of its own whose continuation
// rows start four columns right of the line's own indentation (at most 40% of the column in, for
// deep lines on a phone): a hanging indent. The text is untouched, newlines included, so what a
// reader copies is the code as written.
// A row breaks between two tokens, never inside one (issue 39: `games.leduc(...)` has no space,
// and broke as `ledu`/`c`): a <wbr> between adjacent token spans is a break opportunity that adds
// no character; book.css lets a token break inside only when it alone is wider than the column.
(() => {
  const TAG = /<(\/?)span\b[^>]*>/g;

  // The lines of a listing's HTML (text and Pygments' token spans), each with its own tags: a
  // span still open at a line's end (a docstring, say) is closed there and opened again on the
  // next line. Every line keeps its newline; a last line without one keeps none.
  function splitLines(html) {
    const found = [];
    const open = [];
    let markup = "", text = "", at = 0;
    const add = (chunk) => {
      chunk.split("\n").forEach((part, k) => {
        if (k > 0) {
          found.push({ markup: markup + "</span>".repeat(open.length) + "\n", text });
          markup = open.join("");
          text = "";
        }
        markup += part;
        text += part;
      });
    };
    for (const match of html.matchAll(TAG)) {
      add(html.slice(at, match.index));
      if (match[1]) { open.pop(); } else { open.push(match[0]); }
      markup += match[0];
      at = match.index + match[0].length;
    }
    add(html.slice(at));
    if (text !== "") { found.push({ markup: markup + "</span>".repeat(open.length), text }); }
    return found;
  }

  function hangLines(pre) {
    const html = pre.innerHTML;
    if (pre.querySelector(".code-line") || html.replace(TAG, "").includes("<")) {
      return;   // done already, or markup other than token spans: left as it is
    }
    pre.innerHTML = splitLines(html).map(({ markup, text }) => {
      const hang = text.length - text.trimStart().length + 4;   // columns: own indent + 4
      const breakable = markup.replace(/<\/span>(?=<span)/g, "</span><wbr>");
      return `<span class="code-line" style="--hang: ${hang}ch">${breakable}</span>`;
    }).join("");
    pre.classList.add("code-lines");
  }

  // A token without a space (a name, a number, "a-string") that the browser broke although it
  // fits on the row it continues on (a browser breaks text after a hyphen) is kept whole. One
  // wider than that row may still break: it cannot fit anywhere.
  function keepTokensWhole() {
    for (const pre of document.querySelectorAll("pre.code-lines")) {
      const right = pre.getBoundingClientRect().right;
      for (const token of pre.querySelectorAll("span.code-line span:not(:has(span))")) {
        const rects = token.getClientRects();
        if (rects.length < 2 || /\s/.test(token.textContent)) { continue; }
        const width = Array.from(rects).reduce((sum, r) => sum + r.width, 0);
        if (width < right - rects[rects.length - 1].left) { token.classList.add("code-token"); }
      }
    }
  }

  const run = () => {
    document.querySelectorAll("div.cell_input pre, div.cell_output div.highlight pre").forEach(hangLines);
    keepTokensWhole();
  };
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(keepTokensWhole, 200); });
  window.addEventListener("load", keepTokensWhole);   // again once fonts and images are in
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", run);
  } else {
    run();
  }
})();
