// The sidebar buttons of the article header work at every width (issue 39). pydata-sphinx-theme
// 0.17 wires only the first `.primary-toggle` and `.secondary-toggle` of a page (its
// querySelector; pydata-sphinx-theme issue #2451), the navbar's, which the book never shows; the
// buttons a reader sees are sphinx-book-theme's, in the article header, and did nothing. Here a
// visible button shows or hides its sidebar where the page has room for it, and elsewhere (a
// phone, a narrow window) opens the theme's drawer by clicking the wired button, which moves the
// sidebar's contents into a modal dialog (closed by Escape, a click beside it, or a link).
document.addEventListener("DOMContentLoaded", () => {
  const sides = [
    ["primary", "pst-primary-sidebar", "pst-primary-sidebar-modal"],
    ["secondary", "pst-secondary-sidebar", "pst-secondary-sidebar-modal"],
  ];
  for (const [side, sidebarId, dialogId] of sides) {
    const buttons = Array.from(document.querySelectorAll(`.${side}-toggle`));
    const wired = buttons[0];
    const sidebar = document.getElementById(sidebarId);
    const dialog = document.getElementById(dialogId);
    if (!wired || !sidebar || !dialog) { continue; }
    const hiddenClass = `cfr-${side}-sidebar-hidden`;
    for (const button of buttons.slice(1)) {
      button.setAttribute("aria-controls", sidebarId);
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        const root = document.documentElement;
        // In the page: laid out in the flow and visible (off-canvas, the theme keeps it fixed and hidden).
        const style = getComputedStyle(sidebar);
        const shownInPage = style.display !== "none" && style.visibility !== "hidden" && style.position !== "fixed";
        if (shownInPage || root.classList.contains(hiddenClass)) {
          const hidden = root.classList.toggle(hiddenClass);
          button.setAttribute("aria-expanded", String(!hidden));
        } else {
          wired.click();
        }
      });
    }
    // A link followed inside the drawer closes it (an anchor of the same page does not reload).
    dialog.addEventListener("click", (event) => {
      if (event.target.closest("a[href]") && dialog.open) { dialog.close(); }
    });
  }
});
