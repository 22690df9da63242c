"""External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009)."""

from __future__ import annotations

from operator import mul

from ...game import CHANCE, TERMINAL
from ...textbook.sampling import external_sampling, regret_matching
from ..base import register
from .common import SamplingSolver


@register("es")
class ExternalSamplingMCCFR(SamplingSolver):
    """MCCFR that explores the traverser's actions in full and samples one action of chance and
    of the opponent wherever they act.

    An iteration is a traversal for player 0, then one for player 1. At the traverser's
    infosets ``R(I, a) += v_i(ha) - v_i(h)`` with sampled values (unbiased: ``h`` is sampled with
    probability ``pi_{-i}(h)``, exactly the counterfactual weight). The average strategy uses
    the "simple" (stochastically weighted) update of Lanctot et al. and OpenSpiel: at the
    opponent's infosets, ``S(I, a) += sigma(I, a)``, which in expectation is the opponent's reach
    times a constant of ``I`` (chance's share of ``I``), so the normalised average is right.

    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; ``backend`` is ``"tree"``,
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``).
    ``cfrlib.textbook.sampling.external_sampling`` is the same algorithm, written to be read.
    """

    name = "external-sampling MCCFR"

    def _traverse_states(self):
        for i in (0, 1):
            external_sampling(self.game.initial_state(), i, self.table, self.uniforms)

    def _compile(self):
        """One iteration on the compiled tree; the same arithmetic and draws, in the same order,
        as the textbook recursion."""
        flat = self.flat
        player, infoset, first = flat.player, flat.infoset, flat.first_child
        chance_outcome = flat.chance_outcome
        regret, strategy_sum, sigma = self.regret, self.strategy_sum, self.sigma
        buffer, refill = self.uniforms.buffer, self.uniforms.refill
        draw = buffer.pop
        touched = 0
        i = 0
        utility = flat.utility[0]

        def walk(n):
            nonlocal touched
            touched += 1
            p = player[n]
            if p == i:
                I = infoset[n]
                sig = sigma[I]
                f = first[n]
                q = [walk(f + a) for a in range(len(sig))]
                v = sum(map(mul, sig, q))
                R = regret[I]
                for a in range(len(q)):
                    R[a] += q[a] - v
                sigma[I] = regret_matching(R)
                return v
            if p == TERMINAL:
                return utility[n]
            if not buffer:
                refill()
            u = draw()
            if p == CHANCE:
                return walk(first[n] + chance_outcome(n, u))
            sig = sigma[infoset[n]]
            S = strategy_sum[infoset[n]]
            total = 0.0
            chosen = -1
            for a, s in enumerate(sig):
                S[a] += s
                total += s
                if chosen < 0 and u < total:
                    chosen = a
            if chosen < 0:
                chosen = max(a for a, s in enumerate(sig) if s > 0.0)
            return walk(first[n] + chosen)

        def iteration():
            nonlocal touched, i, utility
            touched = 0
            for i in (0, 1):
                utility = flat.utility[i]
                walk(0)
            return touched

        return iteration
