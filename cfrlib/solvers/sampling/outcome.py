"""Outcome-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009)."""

from __future__ import annotations

from numbers import Real
from typing import Any

from ...errors import SolverError
from ...game import Game
from ..base import register
from ..regret_minimizers import RegretMinimizer
from .common import SamplingSolver
from .walk import Scheme


@register("os")
class OutcomeSamplingMCCFR(SamplingSolver):
    """MCCFR that samples one trajectory per traversal: chance and the opponent on policy, the
    traverser from ``xi(I) = epsilon * uniform + (1 - epsilon) * sigma(I)``.

    An iteration is a traversal for player 0, then one for player 1. With ``w = pi_{-i}(h) /
    q(h)`` (counterfactual reach over sampling probability) and the importance-weighted value
    ``c(a*) = v(ha*) / xi(a*)`` of the sampled action (0 for the others), the traverser's regrets
    get ``R(I, a) += w (c(a) - sigma(a*) c(a*))``. The average strategy is updated
    *stochastically weighted*, at the opponent's infosets on the sampled path:
    ``S(I, a) += w sigma(I, a)`` (the path reaches ``h`` with probability ``q(h)``, so the
    expected update is the opponent's reach, chance included, times ``sigma``; chance's share is
    a constant of ``I``, which normalisation removes). ``epsilon`` must be in (0, 1].

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``); ``regret_minimizer``
    is the local rule (as in ``ExternalSamplingMCCFR``); all by keyword.
    ``cfrlib.textbook.sampling.outcome_sampling`` is the same algorithm, written to be read;
    ``cfrlib.solvers.sampling.kernels.outcome_sampling`` the compiled walk.
    """

    name = "outcome-sampling MCCFR"

    def __init__(self, game: Game, *positional: object, seed: int = 0, backend: str = "auto",
                 regret_minimizer: RegretMinimizer | str | None = None,
                 epsilon: float = 0.6) -> None:
        value: object = epsilon  # checked whatever the caller passed
        if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 < float(value) <= 1.0:
            raise SolverError(f"epsilon must be a number in (0, 1], got {epsilon!r}")
        self.epsilon = float(value)
        super().__init__(game, *positional, seed=seed, backend=backend,
                         regret_minimizer=regret_minimizer)

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "epsilon": self.epsilon}

    def _scheme(self) -> Scheme:
        return Scheme("outcome", self.regret_minimizer, epsilon=self.epsilon)
