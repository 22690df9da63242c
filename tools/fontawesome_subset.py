"""Sphinx extension: every page loads only the Font Awesome icons the book shows (issue 39).

pydata-sphinx-theme's layout loads ``_static/scripts/fontawesome.js`` on every page: Font
Awesome Free's SVG runtime with its three icon packs, 1.49 MB, of which the pages use about 17
icons (search, sidebar and theme-switch buttons, the download menu, ...). When the build has
written the pages, this extension collects every icon the pages name (``<i class="fa-solid
fa-sun">``, ``fas fa-file``) and the theme's own scripts add, and writes in place of the
theme's file the same runtime with each pack cut to those icons: the page code is unchanged,
icons still become inline SVG, and the file weighs a few tens of kB. It is generated from the
theme's installed copy at every build (nothing of Font Awesome lives in the repository), keeps
Font Awesome's license comment, and drops the theme's source map, which described the full
file. A page naming an icon that no pack holds fails the build.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.errors import ExtensionError

SCRIPT = Path("_static") / "scripts" / "fontawesome.js"

# One icon of a pack as the minified runtime writes it: name: [width, height, [aliases],
# "unicode", "svg path"] (a duotone icon has a list of two paths).
_ENTRY = (r'(?:"[^"]+"|[A-Za-z_$][\w$]*|\d+):\[\d+,\d+,\[[^\]]*\],"[0-9a-f]+",'
          r'(?:"[^"]*"|\[(?:"[^"]*",?)*\])\]')
ENTRY = re.compile(r'("[^"]+"|[^:]+):\[\d+,\d+,\[([^\]]*)\]')
PACK = re.compile(r"\{(" + _ENTRY + r"(?:," + _ENTRY + r")*)\}")
# After each pack's object, the runtime registers it under its prefix: d("fas",p),d("fa-solid",p)
PACK_PREFIX = re.compile(r'\(function\(\)\{\w+\("(fa[a-z])",\w+\)')

# Class names that select a pack, and Font Awesome 6's classes that change an icon's look
# rather than name it (sizes, fixed width, animation, rotation, stacking, lists).
STYLES = {"fa": "fas", "fas": "fas", "fa-solid": "fas", "far": "far", "fa-regular": "far",
          "fab": "fab", "fa-brands": "fab"}
MODIFIER = re.compile(r"fa-(?:\d?x[sl]|sm|lg|\d+x|fw|spin|spin-pulse|spin-reverse|pulse|beat|"
                      r"beat-fade|bounce|fade|flip|shake|border|inverse|li|ul|pull-(?:left|right)|"
                      r"rotate-\w+|flip-\w+|stack(?:-[12]x)?|sr-only(?:-focusable)?|width-auto)")
CLASS_ATTRIBUTE = re.compile(r'class="([^"]*)"')
SCRIPT_CLASS_LIST = re.compile(r'"((?:fa-(?:solid|regular|brands)|fa[srb]?) fa-[a-z0-9-]+)"')


def icons_in(class_list: str) -> set[tuple[str, str]]:
    """(pack, icon name) of each Font Awesome icon a class attribute names: "fa-solid fa-sun fa-lg"
    gives {("fas", "sun")}; classes that only size or animate an icon are not icons."""
    classes = class_list.split()
    styles = [STYLES[c] for c in classes if c in STYLES]
    if not styles and not any(c.startswith("fa-") and c not in STYLES for c in classes):
        return set()
    pack = styles[0] if styles else "fas"
    return {(pack, c[3:]) for c in classes
            if c.startswith("fa-") and c not in STYLES and not MODIFIER.fullmatch(c)}


def icons_used(outdir: Path) -> set[tuple[str, str]]:
    """Every icon named by a page of the built site or added by a script of the theme."""
    used: set[tuple[str, str]] = set()
    for page in outdir.rglob("*.html"):
        for class_list in CLASS_ATTRIBUTE.findall(page.read_text(encoding="utf-8")):
            used |= icons_in(class_list)
    for script in (outdir / "_static" / "scripts").glob("*.js"):
        if script.name != SCRIPT.name:
            for class_list in SCRIPT_CLASS_LIST.findall(script.read_text(encoding="utf-8")):
                used |= icons_in(class_list)
    return used


def _names(entry: str) -> set[str]:
    name, aliases = ENTRY.match(entry).groups()
    return {name.strip('"')} | {a.strip('"') for a in aliases.split(",") if a.startswith('"')}


def subset(runtime: str, used: set[tuple[str, str]]) -> str:
    """The runtime with each icon pack cut to the icons in ``used`` (found by name or alias)."""
    missing = set(used)
    parts, start = [], 0
    packs = list(PACK.finditer(runtime))
    if len(packs) < 3:
        raise ExtensionError(f"fontawesome_subset: found {len(packs)} icon packs in the theme's "
                             "fontawesome.js, expected solid, regular and brands")
    for pack in packs:
        prefix = PACK_PREFIX.search(runtime, pack.end())
        if prefix is None:
            raise ExtensionError("fontawesome_subset: an icon pack of the theme's fontawesome.js "
                                 "is not followed by its registration")
        wanted = {name for style, name in used if style == prefix.group(1)}
        kept = [entry.group(0) for entry in re.finditer(_ENTRY, pack.group(1))
                if _names(entry.group(0)) & wanted]
        missing -= {(prefix.group(1), name) for entry in kept for name in _names(entry)}
        parts += [runtime[start:pack.start()], "{" + ",".join(kept) + "}"]
        start = pack.end()
    if missing:
        raise ExtensionError("the pages use Font Awesome icons the theme's fontawesome.js lacks: "
                             + ", ".join(f"{style} fa-{name}" for style, name in sorted(missing)))
    parts.append(runtime[start:])
    return re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", "".join(parts))


def write_subset(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    import pydata_sphinx_theme

    theme_script = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
                    / "static" / "scripts" / "fontawesome.js")
    outdir = Path(app.outdir)
    used = icons_used(outdir)
    license_comment = theme_script.with_name(theme_script.name + ".LICENSE.txt").read_text()
    (outdir / SCRIPT).write_text(
        license_comment.rstrip() + "\n/* Only the icons this book's pages use: "
        + ", ".join(sorted(name for _, name in used)) + " (tools/fontawesome_subset.py). */\n"
        + subset(theme_script.read_text(encoding="utf-8"), used), encoding="utf-8")
    (outdir / SCRIPT).with_name(SCRIPT.name + ".map").unlink(missing_ok=True)


def setup(app):
    app.connect("build-finished", write_subset)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
