"""cfrbook: the scaffolding of the book "CFR from regret matching to DCFR", built on cfrlib.

What the chapters need beyond the library: the figures' look (:mod:`cfrbook.plotting`), figures
with controls that move in the published pages too (:mod:`cfrbook.interactive`), hands against
a solved bot in the page (:mod:`cfrbook.play_widget`), the theorems of chapters 1 and 4 as
computations (:mod:`cfrbook.theory`), chapter 10's comparison study (:mod:`cfrbook.comparison`)
and the recorded data the chapters plot (:mod:`cfrbook.datasets`). ``import cfrlib`` loads
none of it, nor matplotlib or ipywidgets; cfrbook imports cfrlib, never the reverse
(ARCHITECTURE.md).
"""

from importlib.util import find_spec

_MISSING = [name for name in ("matplotlib", "ipywidgets", "IPython", "PIL") if find_spec(name) is None]
if _MISSING:
    raise ModuleNotFoundError(f"cfrbook needs {', '.join(_MISSING)}, the figures' and explorers' "
                              "packages: pip install 'cfrlib[book]'")
