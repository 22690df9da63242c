"""Three last-iterate methods by plain recursion over the game's histories: extragradient RM+
(ExRM+), smooth predictive RM+ (SPRM+) and magnetic mirror descent with the dilated entropy (MMD).

Each makes its *current* strategy converge, and each is written here the way its formulas read:
one dictionary per information set, simultaneous updates (both players move from the same
profile). The full-width engine's :class:`~cfrlib.solvers.fullwidth.ExRMPlus`,
:class:`~cfrlib.solvers.fullwidth.SPRMPlus` and :class:`~cfrlib.solvers.fullwidth.MMD` compute the
same numbers on the compiled tree; the tests check that they agree to 1e-10.

* ExRM+ and SPRM+ (Farina et al., NeurIPS 2023; Cai et al. 2023) keep at every infoset a vector
  ``z`` on the chopped-off orthant ``Z = {z >= 0, sum_a z(a) >= 1}``, play ``z / sum_a z(a)`` and
  move ``z`` by ``Pi_Z(z + eta r)`` with ``r`` the counterfactual regrets (:func:`project`);
* MMD (Sokota et al., ICLR 2023) takes, for each player, a mirror step in the sequence form
  with the dilated entropy, whose solution is a softmax at every infoset, deepest first
  (:func:`mmd_step`).
"""

from __future__ import annotations

import math

from ..game import Game, State

Key = tuple[int, str]                    # (player, infoset key)
Profile = dict[Key, dict[str, float]]    # infoset -> {action: probability}
Sequence = tuple[Key, str] | None        # (infoset, action), None for the empty sequence


def infoset_actions(game: Game) -> dict[Key, list[str]]:
    """``A(I)`` for every infoset of both players."""
    found: dict[Key, list[str]] = {}

    def walk(h: State) -> None:
        if h.is_terminal():
            return
        if h.is_chance():
            for o, _ in h.chance_outcomes():
                walk(h.child(o))
            return
        found.setdefault((h.current_player(), h.infoset_key()), h.legal_actions())
        for a in h.legal_actions():
            walk(h.child(a))

    walk(game.initial_state())
    return found


def counterfactual_regrets(game: Game, profile: Profile) -> Profile:
    """``r(I, a) = sum_{h in I} pi_{-i}(h) (u_i(ha) - u_i(h))`` at every infoset of both players,
    when both play ``profile`` (one walk)."""
    regrets: Profile = {}

    def walk(h: State, reach: tuple[float, float, float]) -> list[float]:
        """``(u_0(h), u_1(h))``; ``reach = (pi_0(h), pi_1(h), pi_c(h))``."""
        if h.is_terminal():
            return list(h.returns())
        if h.is_chance():
            u = [0.0, 0.0]
            for o, prob in h.chance_outcomes():
                below = walk(h.child(o), (reach[0], reach[1], reach[2] * prob))
                u = [u[0] + prob * below[0], u[1] + prob * below[1]]
            return u
        p = h.current_player()
        key = (p, h.infoset_key())
        sigma = profile[key]
        values = {}
        for a in h.legal_actions():
            child = list(reach)
            child[p] *= sigma[a]
            values[a] = walk(h.child(a), (child[0], child[1], child[2]))
        v = [sum(sigma[a] * values[a][j] for a in values) for j in (0, 1)]
        r = regrets.setdefault(key, {a: 0.0 for a in values})
        for a in values:
            r[a] += reach[1 - p] * reach[2] * (values[a][p] - v[p])
        return v

    walk(game.initial_state(), (1.0, 1.0, 1.0))
    return regrets


def project(z: dict[str, float]) -> dict[str, float]:
    """``Pi_Z(z)``, the closest point of ``Z = {z >= 0, sum_a z(a) >= 1}``: ``[z]^+`` if that sums
    to at least 1, else the closest point of the simplex, ``[z(a) - theta]^+`` summing to 1."""
    plus = {a: max(v, 0.0) for a, v in z.items()}
    if sum(plus.values()) >= 1.0:
        return plus
    total, theta = 0.0, 0.0
    for k, value in enumerate(sorted(z.values(), reverse=True), start=1):
        total += value
        if value - (total - 1.0) / k > 0.0:     # the k largest stay positive
            theta = (total - 1.0) / k
    return {a: max(v - theta, 0.0) for a, v in z.items()}


def normalized(z: Profile) -> Profile:
    """``sigma(I, a) = z(I, a) / sum_b z(I, b)`` at every infoset."""
    return {I: {a: v / sum(zI.values()) for a, v in zI.items()} for I, zI in z.items()}


class TextbookExRMPlus:
    """Extragradient RM+: a half step from ``z^t`` with the regrets at ``sigma^t``, then the
    real step from ``z^t`` with the regrets at the half step's strategies,

    ``z^{t+1/2} = Pi_Z(z^t + eta r(sigma^t))``, ``z^{t+1} = Pi_Z(z^t + eta r(sigma^{t+1/2}))``."""

    def __init__(self, game: Game, eta: float = 0.1) -> None:
        self.game, self.eta = game, eta
        self.z = {I: {a: 1.0 / len(A) for a in A} for I, A in infoset_actions(game).items()}
        self.sigma = normalized(self.z)           # sigma^t, played at iteration t

    def step(self, z: Profile, regrets: Profile) -> Profile:
        """``Pi_Z(z + eta r)`` at every infoset."""
        return {I: project({a: z[I][a] + self.eta * regrets[I][a] for a in z[I]}) for I in z}

    def iterate(self, iterations: int = 1) -> TextbookExRMPlus:
        for _ in range(iterations):
            half = self.step(self.z, counterfactual_regrets(self.game, self.sigma))
            self.z = self.step(self.z, counterfactual_regrets(self.game, normalized(half)))
            self.sigma = normalized(self.z)
        return self


class TextbookSPRMPlus(TextbookExRMPlus):
    """Smooth predictive RM+: the regrets ``r^t`` at ``sigma^t`` move ``w`` and also serve as the
    prediction of the next ones,

    ``w^{t+1} = Pi_Z(w^t + eta r^t)``, ``sigma^{t+1} = z / sum_a z(a)`` with ``z = Pi_Z(w^{t+1} + eta r^t)``."""

    def iterate(self, iterations: int = 1) -> TextbookSPRMPlus:
        for _ in range(iterations):
            r = counterfactual_regrets(self.game, self.sigma)
            self.z = self.step(self.z, r)                       # w^{t+1}
            self.sigma = normalized(self.step(self.z, r))
        return self


def sequence_gradient(game: Game, profile: Profile, i: int) -> tuple[dict[Sequence, float],
                                                                     dict[Sequence, list[Key]]]:
    """Player ``i``'s sequence-form gradient against the others' play in ``profile``:
    ``g(s) = sum_z pi_{-i}(z) u_i(z)`` over the terminals ``z`` whose last sequence of ``i`` is ``s``
    (chance included in ``pi_{-i}``); and the infosets of ``i`` right below each sequence."""
    g: dict[Sequence, float] = {}
    below: dict[Sequence, list[Key]] = {}

    def walk(h: State, others: float, last: Sequence) -> None:
        if h.is_terminal():
            g[last] = g.get(last, 0.0) + others * h.returns()[i]
            return
        if h.is_chance():
            for o, prob in h.chance_outcomes():
                walk(h.child(o), others * prob, last)
            return
        p = h.current_player()
        key = (p, h.infoset_key())
        if p == i and key not in below.setdefault(last, []):
            below[last].append(key)
        for a in h.legal_actions():
            if p == i:
                walk(h.child(a), others, (key, a))
            else:
                walk(h.child(a), others * profile[key][a], last)

    walk(game.initial_state(), 1.0, None)
    return g, below


def mmd_step(game: Game, profile: Profile, i: int, temperature: float, eta: float) -> Profile:
    """Player ``i``'s next strategy by MMD with the dilated entropy ``H``,
    ``argmax_x <eta g, x> - eta lambda H(x) - D_H(x, x^t)``: at every infoset ``I`` of ``i``,
    deepest first, ``s(I, a) = (eta g(I, a) + log sigma^t(I, a)) / (1 + eta lambda) + sum_J V(J)`` over
    the infosets ``J`` right below ``(I, a)``, then ``sigma^{t+1}(I) = softmax s(I, .)`` and
    ``V(I) = log sum_a exp s(I, a)``."""
    g, below = sequence_gradient(game, profile, i)
    new: Profile = {}

    def soft_value(I: Key) -> float:
        s = {a: (eta * g.get((I, a), 0.0) + math.log(p)) / (1.0 + eta * temperature)
             + sum(soft_value(J) for J in below.get((I, a), []))
             for a, p in profile[I].items()}
        top = max(s.values())
        total = sum(math.exp(v - top) for v in s.values())
        new[I] = {a: math.exp(v - top) / total for a, v in s.items()}
        return top + math.log(total)

    for I in below.get(None, []):
        soft_value(I)
    return new


class TextbookMMD:
    """Magnetic mirror descent with the dilated entropy, simultaneous updates: both players
    take :func:`mmd_step` from the same profile. ``eta`` is given (the engine's default,
    ``lambda / L^2``, needs the whole payoff matrix)."""

    def __init__(self, game: Game, temperature: float, eta: float) -> None:
        self.game, self.temperature, self.eta = game, temperature, eta
        self.sigma = {I: {a: 1.0 / len(A) for a in A} for I, A in infoset_actions(game).items()}

    def iterate(self, iterations: int = 1) -> TextbookMMD:
        for _ in range(iterations):
            steps = [mmd_step(self.game, self.sigma, i, self.temperature, self.eta) for i in (0, 1)]
            self.sigma = {**steps[0], **steps[1]}
        return self
