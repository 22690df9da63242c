"""External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009)."""

from __future__ import annotations

from ..base import register
from .common import SamplingSolver
from .walk import Scheme


@register("es")
class ExternalSamplingMCCFR(SamplingSolver):
    """MCCFR that explores the traverser's actions in full and samples one action of chance and
    of the opponent wherever they act.

    An iteration is a traversal for player 0, then one for player 1. At the traverser's
    infosets ``R(I, a) += u_i(ha) - u_i(h)`` with sampled values (unbiased: ``h`` is sampled with
    probability ``pi_{-i}(h)``, exactly the counterfactual weight). The average strategy uses
    the "simple" (stochastically weighted) update of Lanctot et al. and OpenSpiel (the default
    ``avg_type`` of its ``ExternalSamplingMCCFRSolver``): at the opponent's infosets,
    ``S(I, a) += sigma(I, a)``, which in expectation is the opponent's reach times a constant of
    ``I`` (chance's share of ``I``), so the normalised average is right.

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``); ``regret_minimizer``
    is the local rule (``"rm"`` by default, ``"rm+"``, or ``RegretMatching(alpha, beta)`` for
    DCFR's discounts, applied to every infoset every iteration as the kernels' docstring says;
    see ``cfrlib.solvers.sampling.common.sampling_minimizer`` for what is refused); all by
    keyword. ``cfrlib.textbook.sampling.external_sampling`` is the same algorithm, written to be
    read; ``cfrlib.solvers.sampling.kernels.external_sampling`` the compiled walk.
    """

    name = "external-sampling MCCFR"

    def _scheme(self) -> Scheme:
        return Scheme("external", self.regret_minimizer)
