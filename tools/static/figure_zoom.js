// Figure text a reader can read without zooming the page (issue 39). Each figure's image carries
// data-text-px, the smallest text of the image in CSS pixels at its natural width (a <picture>'s
// phone rendering on its <source>: tools/phone_pictures.py; an explorer's frame on the image,
// updated with the frame). An image whose text would be shown under MIN_PX high in its column
// (a figure without a phone rendering, an explorer's frame, on a phone) is drawn wider, at the
// width that shows that text MIN_PX high, in a box that scrolls sideways, with a line under it
// that says so: "Wide figure: scroll sideways, or tap it to enlarge".
// A click (or Enter / Space) on an explorer's frame shows it at its natural size; another click
// fits it again (the page's own figures link to their files instead: tools/page_fixes.py).
(() => {
  const MIN_PX = 8;   // cfrbook.phone_figures.PHONE_MIN_PX

  const shownTextPx = (img) => {   // the smallest text as the image is shown now
    const picture = img.parentElement && img.parentElement.tagName === "PICTURE" ? img.parentElement : null;
    const source = picture && Array.from(picture.querySelectorAll("source")).find(
      (s) => !s.media || window.matchMedia(s.media).matches);
    const textPx = parseFloat((source || img).dataset.textPx);
    const natural = source ? parseFloat(source.getAttribute("width")) : img.naturalWidth;
    return { textPx, natural };
  };

  const box = (img) => img.closest(".cfrlib-explorer") || img.closest("a.full-size-figure") || img.parentElement;

  const hint = (img, text) => {
    const holder = box(img);
    let line = holder.nextElementSibling;
    if (!line || !line.classList.contains("cfr-zoom-hint")) {
      line = document.createElement("p");
      line.className = "cfr-zoom-hint";
      holder.after(line);
    }
    line.textContent = text;
    line.hidden = !text;
  };

  const fit = (img) => {
    const { textPx, natural } = shownTextPx(img);
    if (!textPx || !natural) { return; }
    img.style.width = "";
    const holder = box(img);
    holder.classList.remove("cfr-wide-figure");
    const column = holder.parentElement.clientWidth;
    const fitted = Math.min(natural, column);
    const zoomed = img.closest(".cfrlib-explorer-zoomed");
    if (!zoomed && textPx * fitted / natural < MIN_PX) {
      img.style.width = `${Math.ceil(natural * MIN_PX / textPx)}px`;
      holder.classList.add("cfr-wide-figure");
      hint(img, img.classList.contains("cfrlib-explorer-figure")
        ? "Wide figure: scroll sideways, or tap it to see it at full size."
        : "Wide figure: scroll sideways, or tap it to open it at full size.");
    } else {
      hint(img, "");
    }
  };

  const fitAll = () => document.querySelectorAll("article img[data-text-px]").forEach(fit);

  document.addEventListener("DOMContentLoaded", () => {
    for (const img of document.querySelectorAll("article img[data-text-px]")) {
      img.addEventListener("load", () => fit(img));   // an explorer's next frame, a <source> switch
      if (img.complete) { fit(img); }
    }
    for (const img of document.querySelectorAll("img.cfrlib-explorer-figure")) {
      const explorer = img.closest(".cfrlib-explorer");
      img.tabIndex = 0;
      img.setAttribute("role", "button");
      img.setAttribute("aria-pressed", "false");
      img.title = "Click to show the figure at full size; click again to fit it to the column";
      const toggle = () => {
        const zoomed = explorer.classList.toggle("cfrlib-explorer-zoomed");
        img.setAttribute("aria-pressed", String(zoomed));
        fit(img);
      };
      img.addEventListener("click", toggle);
      img.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
      });
    }
    let pending = null;
    window.addEventListener("resize", () => { clearTimeout(pending); pending = setTimeout(fitAll, 150); });
  });
})();
