"""Compare two renders of one figure as pictures, not as bytes.

A frame saved on one machine and drawn again on another need not be equal byte for byte: numpy
picks its SIMD kernels (and OpenBLAS its own) by the CPU, so a sum can differ in its last bit,
and a chaotic computation (regret matching+ in self-play) can turn that into one pixel of a
line drawn elsewhere; a frame's 256-colour palette (cfrbook.interactive) can then shift a few
levels too. A wrong figure (another parameter's, a changed title or curve) changes hundreds of
pixels by far more. So two frames count as the same picture when they have the same size and at
most ``max(MAX_CHANGED, CHANGED_SHARE * pixels)`` pixels differ by more than ``LEVELS`` (of 255)
in some colour channel.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

import numpy as np

LEVELS = 24
"""A pixel whose channels all differ by at most this much (of 255) counts as unchanged."""
MAX_CHANGED = 8
CHANGED_SHARE = 1e-4
"""At most ``max(MAX_CHANGED, CHANGED_SHARE * pixels)`` changed pixels: 24 in a 520 x 460 frame."""


def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def picture_difference(saved: bytes, fresh: bytes) -> str | None:
    """None when ``fresh`` shows the same picture as ``saved`` (see the module docstring), else
    what differs: the sizes, or how many pixels changed and where."""
    if saved == fresh:
        return None
    a, b = _pixels(saved), _pixels(fresh)
    if a.shape != b.shape:
        return f"size {a.shape[1]} x {a.shape[0]} saved, {b.shape[1]} x {b.shape[0]} fresh"
    changed = np.abs(a - b).max(axis=2) > LEVELS
    count, allowed = int(changed.sum()), max(MAX_CHANGED, int(CHANGED_SHARE * changed.size))
    if count <= allowed:
        return None
    rows, cols = np.nonzero(changed)
    return (f"{count} pixels of {changed.size} changed by more than {LEVELS} levels (at most "
            f"{allowed} may), in x {cols.min()}-{cols.max()}, y {rows.min()}-{rows.max()}")


def explorer_differences(saved: dict, fresh: dict,
                         normalize: Callable[[str], str] = str) -> list[str]:
    """What differs between an explorer's saved static data (``cfrbook.interactive``) and a
    fresh run's, at the grid points the fresh run drew: the controls, a printed text (compared
    exactly once both pass through ``normalize``: nbval's sanitizing in make test) or a picture
    (compared by :func:`picture_difference`)."""
    for key in ("axes", "shape"):
        if saved[key] != fresh[key]:
            return [f"its {key} differ"]
    found = []
    for point, (old, new) in enumerate(zip(saved["frame_of"], fresh["frame_of"])):
        if new is None:
            continue
        if old is None:
            found.append(f"grid point {point}: no saved frame")
        elif normalize(saved["texts"][old]) != normalize(fresh["texts"][new]):
            found.append(f"grid point {point}: printed text {saved['texts'][old]!r} saved, "
                         f"{fresh['texts'][new]!r} fresh")
        elif why := picture_difference(base64.b64decode(saved["images"][old]),
                                       base64.b64decode(fresh["images"][new])):
            found.append(f"grid point {point}: figure differs: {why}")
    return found
