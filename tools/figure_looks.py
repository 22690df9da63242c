"""Check that a figure draws every algorithm in its one look (``cfrbook.plotting.VARIANT_STYLES``).

tools/figure_layout.py calls :func:`problems` on every figure a notebook kernel saves (a cell's
inline image and every explorer frame alike). It records the colour, line style (dash pattern)
and marker of every labelled series of the figure, the artists of its axes and the entries of
its legends, and names the label's algorithm:

* a label that :func:`cfrbook.plotting.variant_of` maps to a variant (its name, an alias of
  ``VARIANT_ALIASES``, either followed by a note in parentheses) must be drawn in that
  variant's colour, line style and marker (points without a line: its colour and marker; a bar,
  band or scatter: its colour);
* a label that reads like an algorithm (:data:`ALGORITHM_WORDS`) but names no variant must match
  one of :data:`SETTINGS`, the explicit list of series that are drawn on purpose in a look of
  their own: a setting of a variant (its current strategy, another parameter, its bound) in its
  variant's colour with another line style or marker, or a chosen setting in a colour no
  variant uses. An algorithm-like label in neither list is a failure, never skipped;
* no two algorithms in one figure share a look (colour, line style, marker).

Labels starting with ``_`` (matplotlib's unlabelled artists) and labels that do not read like an
algorithm (axes of a game, bounds, slopes, players) are not looked at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cfrbook import plotting

ALGORITHM_WORDS = re.compile(r"CFR|MCCFR|\bsampl(ing|ed)\b|regret matching|\bRM\+?|Hedge|\bOS\b|\bES\b"
                             r"|epsilon|\\epsilon|ε|ExRM|SPRM|\bMMD\b", re.IGNORECASE)
"""What makes a label read like an algorithm: such a label must name a variant or a setting."""

SETTINGS: tuple[tuple[str, str | None, str], ...] = (
    (r"^(?P<variant>.+), average$", "=",
     "a variant's average strategy: the variant's own look"),
    (r"^(?P<variant>.+), current$", "family",
     "a variant's current strategy: the variant's colour, another line style"),
    (r"^(?P<variant>.+) after [\d,]+ iterations$", "family",
     "a variant's last point: the variant's colour and marker, no line"),
    (r"^bound of (?P<variant>.+)$", "family",
     "a variant's bound: the variant's colour, dashed, no marker"),
    (r"^(?P<variant>Hedge-CFR), rate x \d+$", "family",
     "Hedge-CFR at another learning rate: Hedge's colour, another line style"),
    (r"^\$\\epsilon\$ = (?!0\.6$)[0-9.]+$", "OS-MCCFR",
     "outcome sampling at an exploration other than the book's 0.6 (which is OS-MCCFR's look): "
     "its colour, another line style and marker"),
    (r"^VR-MCCFR's regrets, b = 0$", "VR-MCCFR",
     "VR-MCCFR's state measured with a zero baseline: VR-MCCFR's colour, another line style"),
    (r"^(RM\+?|DCFR)\(.*|^RM\+?, .* average, .*$", None,
     "the setting a reader chose in an explorer of chapters 8 and 9: a wide band in "
     "plotting.CHOSEN_STYLE's colour, which no variant uses"),
)
"""``(pattern, role, why)`` for the algorithm-like labels that name no variant. ``role`` says
which look the series must have: ``"="`` the look of the variant the pattern's ``variant`` group
names; ``"family"`` (that variant) or a variant's name: the variant's colour with another line
style or marker; None: a colour no variant is drawn in."""


@dataclass(frozen=True)
class Look:
    """How a series is drawn: a colour (hex), a dash pattern (None: no line) and a marker."""
    color: str
    dashes: Any = None
    marker: str | None = None
    kind: str = "line"      # "line"; "points" (no line: colour and marker); "patch" (colour)

    def describe(self) -> str:
        if self.kind == "points":
            return f"points in {self.color}" + (f", marker {self.marker!r}" if self.marker else "")
        if self.kind != "line":
            return f"{self.kind} in {self.color}"
        line = ("no line" if self.dashes is None else "solid" if self.dashes[1] is None
                else f"dashes {tuple(self.dashes[1])}")
        return f"{self.color}, {line}, " + (f"marker {self.marker!r}" if self.marker else "no marker")


def _hex(color) -> str:
    from matplotlib.colors import to_hex

    return to_hex(color, keep_alpha=False).lower()


def _marker(marker) -> str | None:
    return None if marker in (None, "None", "none", "", " ") else str(marker)


def line_look(line) -> Look:
    """The look of a ``Line2D`` (a plotted series or a legend's handle)."""
    marker = _marker(line.get_marker())
    if line.get_linestyle() in ("None", "none", "", " "):
        return Look(_hex(line.get_color()), None, marker, "points" if marker else "line")
    offset, dashes = line._unscaled_dash_pattern   # as set, before scaling by the line's width
    return Look(_hex(line.get_color()), (float(offset), dashes and tuple(map(float, dashes))), marker)


def style_look(style: plotting.PlotStyle) -> Look:
    """The look ``ax.plot(**style)`` draws."""
    from matplotlib.lines import Line2D

    return line_look(Line2D([], [], **style))


def _artist_look(artist) -> Look | None:
    import matplotlib.collections as mcoll
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(artist, Line2D):
        return line_look(artist)
    if isinstance(artist, ErrorbarContainer):
        return line_look(artist.lines[0]) if artist.lines[0] is not None else None
    if isinstance(artist, BarContainer):
        return _artist_look(artist.patches[0]) if artist.patches else None
    if isinstance(artist, Patch):
        face = artist.get_facecolor()
        return Look(_hex(face if face[3] > 0 else artist.get_edgecolor()), kind="patch")
    if isinstance(artist, mcoll.Collection):
        colors = artist.get_facecolor()
        if not len(colors) or colors[0][3] == 0:
            colors = artist.get_edgecolor()
        if not len(colors):
            return None
        kind = "points" if isinstance(artist, mcoll.PathCollection) else "patch"
        return Look(_hex(colors[0]), kind=kind)
    return None


def series(figure) -> list[tuple[str, Look]]:
    """``(label, look)`` of every labelled series of ``figure``: its axes' lines, collections
    and containers, and its legends' entries (whose labels may differ from the artists', and
    which a phone rendering may have broken onto lines: read as one)."""
    found: list[tuple[str, Look]] = []
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        for artist in [*ax.lines, *ax.collections, *ax.containers, *ax.patches]:
            label = artist.get_label()
            if not label or label.startswith("_") or not _visible(artist):
                continue
            look = _artist_look(artist)
            if look is not None:
                found.append((label, look))
    for legend in [ax.get_legend() for ax in figure.axes] + list(figure.legends):
        if legend is None or not legend.get_visible():
            continue
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            look = _artist_look(handle) if handle is not None else None
            if look is not None and text.get_text():   # as one line (a phone's legend wraps)
                found.append((text.get_text().replace("\n", " "), look))
    return list(dict.fromkeys(found))


def _visible(artist) -> bool:
    """Whether ``artist`` (or, for a container such as a bar chart's, any of its parts) shows."""
    if hasattr(artist, "get_visible"):
        return bool(artist.get_visible())
    return any(part.get_visible() for part in artist.get_children())


def _setting(label: str) -> tuple[str | None, str, str] | None:
    """``(variant or None, role, why)`` of the setting ``label`` matches, if any."""
    for pattern, role, why in SETTINGS:
        match = re.match(pattern, label)
        if match is None:
            continue
        if role in ("=", "family"):
            variant = plotting.variant_of(match.group("variant"))
        else:
            variant = plotting.variant_of(role) if role else None
        if role is not None and variant is None:
            continue            # "X, current" where X is no variant
        return variant, role or "chosen", why
    return None


def _same(look: Look, wanted: Look) -> bool:
    """Whether ``look`` draws ``wanted``: a line all of it, points its colour and marker (a
    scatter's marker is not recorded), a bar or band its colour."""
    if look.kind == "points":
        return look.color == wanted.color and look.marker in (None, wanted.marker)
    if look.kind != "line":
        return look.color == wanted.color
    return look == wanted


def _wanted(look: Look, wanted: Look) -> str:
    """The part of ``wanted`` that ``look``'s kind of series is held to."""
    if look.kind == "points":
        return Look(wanted.color, None, wanted.marker, "points").describe()
    return wanted.describe() if look.kind == "line" else wanted.color


def _in_its_look(label: str, look: Look, variant: str, why: str) -> list[str]:
    """A problem if ``look`` is not ``variant``'s look (``why`` says whose look is wanted)."""
    wanted = style_look(plotting.VARIANT_STYLES[variant])
    if _same(look, wanted):
        return []
    return [f"{label!r} is drawn as {look.describe()}; {why} {_wanted(look, wanted)}"]


def problems(figure) -> list[str]:
    """What is drawn in a look other than its algorithm's, in ``figure``, a line a problem."""
    found: list[str] = []
    algorithms: dict[Look, set[str]] = {}
    variant_colors = {style_look(s).color for s in plotting.VARIANT_STYLES.values()}
    for label, look in series(figure):
        variant = plotting.variant_of(label)
        if variant is not None:
            found += _in_its_look(label, look, variant,
                                  f"{variant}'s look (cfrbook.plotting.VARIANT_STYLES) is")
            algorithms.setdefault(look, set()).add(variant)
            continue
        if not ALGORITHM_WORDS.search(label):
            continue
        setting = _setting(label)
        if setting is None:
            found.append(f"{label!r} reads like an algorithm but names no variant: map it to one "
                         "(cfrbook.plotting.VARIANT_ALIASES) or list it as a setting drawn in a "
                         "look of its own (tools/figure_looks.py SETTINGS)")
            continue
        variant, role, why = setting
        if role == "=":
            found += _in_its_look(label, look, variant, f"as {why},")
            algorithms.setdefault(look, set()).add(variant)
            continue
        if role == "chosen":
            if look.color in variant_colors:
                found.append(f"{label!r} is drawn in {look.color}, a variant's colour; as {why}")
        else:
            wanted = style_look(plotting.VARIANT_STYLES[variant])
            if look.color != wanted.color:
                found.append(f"{label!r} is drawn in {look.color}; as {why} ({variant}: "
                             f"{wanted.color})")
        algorithms.setdefault(look, set()).add(label)
    for look, names in algorithms.items():
        if len(names) > 1:
            found.append(f"{' and '.join(sorted(names))} share one look ({look.describe()})")
    return found
