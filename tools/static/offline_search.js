// Opened from a file (file://), the browser lets a page read no other file, so Sphinx's search
// lists the matching pages without the extract it would fetch from each one. Say so on the
// search page, and how to get the extracts: serve the folder.
document.addEventListener("DOMContentLoaded", () => {
  const results = document.getElementById("search-results");
  if (location.protocol !== "file:" || !results) { return; }
  const note = document.createElement("p");
  note.className = "offline-search-note";
  note.textContent = "Read from a file, the search lists the pages that match, without " +
    "extracts. For extracts, serve the book's folder and open it from there: " +
    "python -m http.server --directory _build/html, then http://localhost:8000.";
  results.parentNode.insertBefore(note, results);
});
