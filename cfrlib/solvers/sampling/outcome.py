"""Outcome-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009)."""

from __future__ import annotations

from numbers import Real

from ...errors import SolverError
from ...game import CHANCE, TERMINAL
from ...textbook.sampling import outcome_sampling, regret_matching
from ..base import register
from .common import SamplingSolver


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
    ``"states"`` or ``"auto"`` (see ``cfrlib.solvers.sampling.common``).
    ``cfrlib.textbook.sampling.outcome_sampling`` is the same algorithm, written to be read.
    """

    name = "outcome-sampling MCCFR"

    def __init__(self, game, epsilon=0.6, seed=0, backend="auto"):
        if isinstance(epsilon, bool) or not isinstance(epsilon, Real) or not 0.0 < epsilon <= 1.0:
            raise SolverError(f"epsilon must be a number in (0, 1], got {epsilon!r}")
        self.epsilon = float(epsilon)
        super().__init__(game, seed, backend)

    def _params(self) -> dict:
        return {**super()._params(), "epsilon": self.epsilon}

    def _traverse_states(self):
        for i in (0, 1):
            outcome_sampling(self.game.initial_state(), i, 1.0, 1.0, self.table, self.uniforms,
                             self.epsilon)

    def _compile(self):
        """One iteration on the compiled tree: down the sampled path in a loop, then the
        regret updates back up it; the same arithmetic and draws, in the same order, as the
        textbook recursion."""
        flat = self.flat
        player, infoset, first = flat.player, flat.infoset, flat.first_child
        chance_outcome, chance_probs = flat.chance_outcome, flat.chance_probs
        regret, strategy_sum, sigma = self.regret, self.strategy_sum, self.sigma
        buffer, refill = self.uniforms.buffer, self.uniforms.refill
        draw = buffer.pop
        epsilon = self.epsilon
        keep = 1.0 - epsilon

        def traverse(i):
            n, pi_o, q, touched = 0, 1.0, 1.0, 0
            path = []  # the traverser's (infoset, sampled action, xi(a*), w), top down
            while True:
                touched += 1
                p = player[n]
                if p == TERMINAL:
                    break
                if not buffer:
                    refill()
                u = draw()
                if p == CHANCE:
                    k = chance_outcome(n, u)
                    pr = chance_probs[n][k]
                    pi_o *= pr
                    q *= pr
                    n = first[n] + k
                    continue
                I = infoset[n]
                sig = sigma[I]
                w = pi_o / q
                if p == i:
                    e = epsilon / len(sig)
                    xi = [e + keep * s for s in sig]
                else:
                    xi = sig
                    S = strategy_sum[I]
                    for a, s in enumerate(sig):
                        S[a] += w * s
                total = 0.0
                for a, x in enumerate(xi):
                    total += x
                    if u < total:
                        break
                else:
                    a = max(b for b, x in enumerate(xi) if x > 0.0)
                if p == i:
                    path.append((I, a, xi[a], w))
                else:
                    pi_o *= sig[a]
                q *= xi[a]
                n = first[n] + a
            v = flat.utility[i][n]
            for I, a, x, w in reversed(path):
                c = v / x
                v = sigma[I][a] * c
                R = regret[I]
                for b in range(len(R)):
                    R[b] += w * ((c if b == a else 0.0) - v)
                sigma[I] = regret_matching(R)
            return touched

        def iteration():
            return traverse(0) + traverse(1)

        return iteration
