"""Chance-sampled CFR (Zinkevich et al. 2007; Lanctot 2013, section 2.2)."""

from __future__ import annotations

from typing import Any

from ...checks import check_flag
from ...game import Game
from ..base import register
from ..regret_minimizers import RegretMinimizer
from .common import SamplingSolver
from .walk import Scheme


@register("cs")
class ChanceSamplingCFR(SamplingSolver):
    """CFR that samples one chance outcome at every chance node it meets and explores both
    players' actions in full.

    A traversal for player ``i`` adds ``R(I, a) += pi_{-i}(h) (u_i(ha) - u_i(h))`` with the
    opponent's reach only (no chance probability: chance was sampled with exactly that
    probability, so the expected update is the counterfactual regret) and
    ``S(I, a) += pi_i(h) sigma(I, a)`` to the average strategy. With ``alternating=True`` an
    iteration is a traversal for player 0 and then one for player 1 (which already plays player
    0's new strategy); with ``alternating=False`` both players' traversals take the same deal and
    the same ``sigma^t`` (compiled: one traversal updates both; ``"states"``: two walks, so twice
    the nodes touched). Subtrees
    that both players reach with probability 0 are skipped (nothing in them would change).

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``); ``regret_minimizer``
    is the local rule (as in ``ExternalSamplingMCCFR``); all by keyword.
    ``cfrlib.textbook.sampling.chance_sampling_cfr`` is the same algorithm, written to be read;
    ``cfrlib.solvers.sampling.kernels.chance_sampling`` the compiled walk.
    """

    name = "chance-sampling CFR"

    def __init__(self, game: Game, *positional: object, seed: int = 0, backend: str = "auto",
                 regret_minimizer: RegretMinimizer | str | None = None,
                 alternating: bool = True) -> None:
        self.alternating = check_flag(alternating, "alternating")
        super().__init__(game, *positional, seed=seed, backend=backend,
                         regret_minimizer=regret_minimizer)

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "alternating": self.alternating}

    def _scheme(self) -> Scheme:
        return Scheme("chance", self.regret_minimizer, alternating=self.alternating)
