"""Chance-sampled CFR (Zinkevich et al. 2007; Lanctot 2013, section 2.2)."""

from __future__ import annotations

from operator import mul

from ...errors import SolverError
from ...game import CHANCE, TERMINAL
from ...textbook.sampling import chance_sampling_cfr, regret_matching
from ..base import register
from .common import SamplingSolver


@register("cs")
class ChanceSamplingCFR(SamplingSolver):
    """CFR that samples one chance outcome at every chance node it meets and explores both
    players' actions in full.

    A traversal for player ``i`` adds ``R(I, a) += pi_{-i}(h) (v_i(ha) - v_i(h))`` with the
    opponent's reach only (no chance probability: chance was sampled with exactly that
    probability, so the expected update is the counterfactual regret) and
    ``S(I, a) += pi_i(h) sigma(I, a)`` to the average strategy. With ``alternating=True`` an
    iteration is a traversal for player 0 and then one for player 1 (which already plays player
    0's new strategy); with ``alternating=False`` one traversal updates both players. Subtrees
    that both players reach with probability 0 are skipped (nothing in them would change).

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``).
    ``cfrlib.textbook.sampling.chance_sampling_cfr`` is the same algorithm, written to be read.
    """

    name = "chance-sampling CFR"

    def __init__(self, game, seed=0, alternating=True, backend="auto"):
        if not isinstance(alternating, bool):
            raise SolverError(f"alternating must be True or False, got {alternating!r}")
        self.alternating = alternating
        self._schedule = ((0,), (1,)) if alternating else ((0, 1),)
        super().__init__(game, seed, backend)

    def _params(self) -> dict:
        return {**super()._params(), "alternating": self.alternating}

    def _traverse_states(self):
        for players in self._schedule:
            chance_sampling_cfr(self.game.initial_state(), players, (1.0, 1.0), self.table,
                                self.uniforms)

    def _compile(self):
        """One iteration on the compiled tree; the same arithmetic, in the same order, as the
        textbook recursion."""
        flat = self.flat
        player, infoset, first = flat.player, flat.infoset, flat.first_child
        payoff, chance_outcome = flat.utility[0], flat.chance_outcome
        regret, strategy_sum, sigma = self.regret, self.strategy_sum, self.sigma
        buffer, refill = self.uniforms.buffer, self.uniforms.refill
        draw = buffer.pop
        schedule = self._schedule
        touched = 0
        players = ()

        def walk(n, r0, r1):
            nonlocal touched
            touched += 1
            p = player[n]
            if p == TERMINAL:
                return payoff[n]
            if p == CHANCE:
                if not buffer:
                    refill()
                return walk(first[n] + chance_outcome(n, draw()), r0, r1)
            if r0 == 0.0 and r1 == 0.0:
                return 0.0
            I = infoset[n]
            sig = sigma[I]
            f = first[n]
            if p == 0:
                q = [walk(f + a, r0 * s, r1) for a, s in enumerate(sig)]
            else:
                q = [walk(f + a, r0, r1 * s) for a, s in enumerate(sig)]
            v = sum(map(mul, sig, q))
            if p in players:
                R, S = regret[I], strategy_sum[I]
                if p == 0:
                    for a in range(len(q)):
                        R[a] += r1 * (q[a] - v)
                        S[a] += r0 * sig[a]
                else:
                    for a in range(len(q)):
                        R[a] += r0 * (v - q[a])
                        S[a] += r1 * sig[a]
                sigma[I] = regret_matching(R)
            return v

        def iteration():
            nonlocal touched, players
            touched = 0
            for players in schedule:
                walk(0, 1.0, 1.0)
            return touched

        return iteration
