"""Outcome-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009)."""

from __future__ import annotations

from typing import Any

from ...checks import check_probability
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

    An iteration is a traversal for player 0, then one for player 1. With ``rho = pi_{-i}(h) /
    q(h)`` (counterfactual reach over sampling probability) and the importance-weighted value
    ``c(a*) = u(ha*) / xi(a*)`` of the sampled action (0 for the others), the traverser's regrets
    get ``R(I, a) += rho (c(a) - sigma(a*) c(a*))``. The average strategy is updated
    *stochastically weighted*, at the opponent's infosets on the sampled path:
    ``S(I, a) += rho sigma(I, a)`` (the path reaches ``h`` with probability ``q(h)``, so the
    expected update is the opponent's reach, chance included, times ``sigma``; chance's share is
    a constant of ``I``, which normalisation removes). ``epsilon`` must be in (0, 1].

    ``baseline="learned"`` is VR-MCCFR (Schmid, Burch, Lanctot, Moravcik, Kadlec and Bowling
    2019): every node of the path, chance's and the opponent's included, sends up the
    baseline-corrected value ``u(h) = sum_a p(h, a) c(a)`` with ``c(a*) = b(h, a*) + (u(ha*) -
    b(h, a*)) / xi(h, a*)`` for the sampled action and ``c(a) = b(h, a)`` for the others (``p``
    and ``xi`` are the strategy and the sampling probabilities there), and the traverser's
    regrets get ``R(I, a) += rho (c(a) - u(h))``. Unbiased for any baseline fixed before the
    trajectory; ``b = 0`` is plain outcome sampling. The baseline is learned per history (the
    paper keeps one per augmented infoset of the traverser, ``b_i(I_i(h), a)``; a history
    determines more, and the compiled tree indexes it directly): each player's exponentially
    decaying average of the values seen through ``ha*``, ``b_i(h, a*) <- (1 - rate) b_i(h, a*)
    + rate u_i(ha*)`` after each use, with ``rate = baseline_rate`` (the paper's 0.5; 0 keeps
    ``b = 0``). It needs the tree backend.

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``); ``regret_minimizer``
    is the local rule (as in ``ExternalSamplingMCCFR``); all by keyword.
    ``cfrlib.textbook.sampling.outcome_sampling`` is the same algorithm, written to be read;
    ``cfrlib.solvers.sampling.kernels.outcome_sampling`` the compiled walk.
    """

    name = "outcome-sampling MCCFR"

    def __init__(self, game: Game, *positional: object, seed: int = 0, backend: str = "auto",
                 regret_minimizer: RegretMinimizer | str | None = None,
                 epsilon: float = 0.6, baseline: str = "none", baseline_rate: float = 0.5) -> None:
        self.epsilon = check_probability(epsilon, "epsilon", positive=True)
        if baseline not in BASELINES:
            raise SolverError(f"baseline must be one of {BASELINES}, got {baseline!r}")
        self.baseline = baseline
        self.baseline_rate = check_probability(baseline_rate, "baseline_rate")
        super().__init__(game, *positional, seed=seed, backend=backend,
                         regret_minimizer=regret_minimizer)
        if baseline != "none" and self.backend != "tree":
            raise SolverError(f"baseline={baseline!r} is kept per node of the compiled tree: it needs "
                              f"backend=\"tree\"{', and ' + game.name + ' is too large to compile' if backend == 'auto' else ''}")

    def _params(self) -> dict[str, Any]:
        params = {**super()._params(), "epsilon": self.epsilon}
        if self.baseline != "none":
            params.update(baseline=self.baseline, baseline_rate=self.baseline_rate)
        return params

    def _scheme(self) -> Scheme:
        return Scheme("outcome", self.regret_minimizer, epsilon=self.epsilon,
                      baseline=self.baseline, baseline_rate=self.baseline_rate)


BASELINES = ("none", "learned")
"""Outcome sampling's baselines: none (plain MCCFR) or learned (VR-MCCFR)."""
