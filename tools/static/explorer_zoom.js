// An explorer's frame is drawn for the column; on a phone its text is a few pixels high. A click
// (or Enter / Space) on the frame shows it at its natural size, in a box that scrolls sideways;
// another click fits it to the column again. Frames are images inside the explorer's HTML, which
// the page's own figures link to their files instead (tools/page_fixes.py).
document.addEventListener("DOMContentLoaded", () => {
  for (const img of document.querySelectorAll("img.cfrlib-explorer-figure")) {
    const explorer = img.closest(".cfrlib-explorer");
    img.tabIndex = 0;
    img.setAttribute("role", "button");
    img.setAttribute("aria-pressed", "false");
    img.title = "Click to show the figure at full size; click again to fit it to the column";
    const toggle = () => {
      const zoomed = explorer.classList.toggle("cfrlib-explorer-zoomed");
      img.setAttribute("aria-pressed", String(zoomed));
    };
    img.addEventListener("click", toggle);
    img.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
    });
  }
});
