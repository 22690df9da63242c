"""Off-tree actions: a blueprint computed with some bet sizes, played in a game with more.

A blueprint solved with the bet sizes ``A`` of :func:`~cfrlib.games.no_limit_leduc` meets an
opponent who bets ``x`` not in ``A``. Two answers:

* **Action translation** (:func:`translated_strategy`): treat ``x`` as a size of ``A`` and play the
  blueprint's strategy there. The *pseudo-harmonic mapping* of Ganzfried and Sandholm (2013) maps
  ``x`` between the neighbouring sizes ``a < x < b`` (pot fractions) to ``a`` with probability
  ``f(x) = (b - x)(1 + a) / ((b - a)(1 + x))`` and to ``b`` otherwise; below the smallest size or
  above the largest, to that size. The mapping is drawn once per off-tree bet, so at a later
  infoset the player's behaviour is the blueprint's at each translated history weighted by how
  likely that translation is given the player's own actions since: ``f`` times the player's own
  reach of the translated infoset in the blueprint.
* **Nested safe solving** (:func:`nested_solving`, Brown and Sandholm 2017, section 6): re-solve
  the subgame that starts right after the off-tree bet, with the reach-maxmargin gadget of
  :mod:`cfrlib.subgame` against the translated strategy. Here the opponent's values at the roots
  are exact (computed in the game with ``x``); in practice they are estimated from the blueprint.
  The gadget's guarantee makes the result no more exploitable than the translation.

:func:`off_tree_study` measures both exactly in the game with sizes ``A + (x,)`` for each ``x``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np

from .errors import GameError
from .evaluation import exploitability
from .games.no_limit_leduc import NoLimitLeduc, no_limit_leduc, raise_action
from .strategy import Strategy, StrategyLike, as_strategy
from .subgame import SubgameSolver, _reaches, subgames_after

__all__ = ["pseudo_harmonic", "translate", "translated_strategy", "nested_solving", "off_tree_study"]


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """``f(x) = (b - x)(1 + a) / ((b - a)(1 + x))``: the probability of mapping a bet of ``x``
    (a fraction of the pot) to the smaller size ``a``, for ``a <= x <= b``."""
    if not 0 <= a < b or not a <= x <= b:
        raise GameError(f"pseudo_harmonic needs 0 <= a <= x <= b with a < b, got x={x}, a={a}, b={b}")
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def translate(x: float, sizes: Sequence[float]) -> list[tuple[float, float]]:
    """``[(size, probability), ...]``: where the pseudo-harmonic mapping sends a bet of ``x``
    among ``sizes``."""
    known = sorted(sizes)
    if x in known:
        return [(x, 1.0)]
    if x < known[0]:
        return [(known[0], 1.0)]
    if x > known[-1]:
        return [(known[-1], 1.0)]
    b = next(s for s in known if s > x)
    a = known[known.index(b) - 1]
    f = pseudo_harmonic(x, a, b)
    return [(a, f), (b, 1.0 - f)]


def _translations(key: str, sizes: Sequence[float]) -> list[tuple[str, float]]:
    """The infoset keys a key of the larger game maps to, with their probabilities."""
    tokens = key.split("|")
    options: list[list[tuple[str, float]]] = []
    for k, part in enumerate(tokens):
        if k % 2 == 0 and k > 0 or k == 0:  # a card
            options.append([(part, 1.0)])
            continue
        rounds = [[(t, 1.0)] if not t.startswith("r") else
                  [(f"r{s:g}", p) for s, p in translate(float(t[1:]), sizes)] for t in part.split()]
        options.append([(" ".join(t for t, _ in combo), float(np.prod([p for _, p in combo])))
                        for combo in product(*rounds)])
    return [("|".join(k for k, _ in combo), float(np.prod([p for _, p in combo])))
            for combo in product(*options)]


def translated_strategy(game: NoLimitLeduc, abstract: NoLimitLeduc, blueprint: StrategyLike) -> Strategy:
    """The blueprint of ``abstract`` (a game with fewer bet sizes) played in ``game`` by action
    translation (module docstring): at each infoset, the blueprint's actions at the translated
    infosets, weighted by translation probability times the player's own blueprint reach there
    (the translation probabilities alone where that reach is 0). Off-tree actions of the player
    itself get probability 0; an infoset no translation reaches plays its on-tree actions
    uniformly."""
    missing = set(abstract.bet_sizes) - set(game.bet_sizes)
    if missing:
        raise GameError(f"{game.name} lacks the bet sizes {sorted(missing)} of {abstract.name}")
    bp = as_strategy(abstract, blueprint)
    small, tree = abstract.tree(), game.tree()
    reach = _reaches(small, bp.probs)
    decision = np.flatnonzero(small.infoset >= 0)
    _, first = np.unique(small.infoset[decision], return_index=True)
    own = reach[small.infoset_player, decision[first]]  # own reach of each abstract infoset
    probs = np.zeros_like(tree.uniform())
    for I in range(tree.num_infosets):
        player, actions = int(tree.infoset_player[I]), tree.infoset_actions[I]
        row, total, fallback = np.zeros(len(actions)), 0.0, np.zeros(len(actions))
        for key, p in _translations(tree.infoset_keys[I], abstract.bet_sizes):
            if not small.has_infoset(player, key):
                continue
            J = small.infoset_index(player, key)
            theirs = dict(zip(small.infoset_actions[J], bp.probs[J]))
            mapped = np.array([theirs.get(a, 0.0) for a in actions])
            row += p * own[J] * mapped
            total += p * own[J]
            fallback += p * mapped
        if total > 0:
            probs[I, :len(actions)] = row / total
        elif fallback.sum() > 0:
            probs[I, :len(actions)] = fallback / fallback.sum()
        else:
            on_tree = np.array([not a.startswith("raise") or float(a.split()[1]) in abstract.bet_sizes
                                for a in actions], dtype=float)
            probs[I, :len(actions)] = on_tree / on_tree.sum()
    return Strategy(game, probs)


def nested_solving(game: NoLimitLeduc, strategy: StrategyLike, off_sizes: Sequence[float],
                   iterations: int | None = None) -> Strategy:
    """``strategy`` with every subgame that starts right after a bet of one of ``off_sizes``
    re-solved for both players by reach-maxmargin against it (LP, or ``iterations`` of CFR+)."""
    parts = subgames_after(game, [raise_action(x) for x in off_sizes])
    return SubgameSolver(game, strategy, parts).solve("reach", iterations)


def off_tree_study(known: Sequence[float], off: Sequence[float], max_raises: int = 1,
                   ranks: int = 3, suits: int = 2) -> list[dict[str, float]]:
    """For each off-tree size ``x`` of ``off``: the blueprint (the LP's equilibrium of the game with
    bet sizes ``known``) translated into the game with ``known + (x,)``, and the translation with
    nested safe solving after ``x``, each graded by its exact exploitability in that game.
    One row per ``x``: ``{"size": x, "translation": ..., "nested": ...}``."""
    from .lp import solve_lp  # scipy, loaded on first use

    abstract = no_limit_leduc(known, max_raises=max_raises, ranks=ranks, suits=suits)
    blueprint = solve_lp(abstract).strategy
    rows = []
    for x in off:
        if x in known:
            raise GameError(f"the off-tree size {x} is one of the known sizes {list(known)}")
        game = no_limit_leduc(sorted((*known, x)), max_raises=max_raises, ranks=ranks, suits=suits)
        translated = translated_strategy(game, abstract, blueprint)
        nested = nested_solving(game, translated, [x])
        rows.append({"size": float(x), "translation": exploitability(game, translated),
                     "nested": exploitability(game, nested)})
    return rows
