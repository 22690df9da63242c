"""Games and strategies of OpenSpiel (``pip install open_spiel``, an optional dependency).

:func:`from_openspiel` walks a two-player, zero-sum (or constant-sum), turn-based OpenSpiel game
(or simultaneous-move) with explicit chance into an :class:`OpenSpielGame`, an :class:`~cfrlib.games.ExplicitGame` that
remembers where its infosets and actions came from: an infoset is named by OpenSpiel's
``information_state_string`` and an action by ``action_to_string`` (``"Pass"``, ``"Bet"``),
so every solver and evaluation of cfrlib runs on it unchanged.
:meth:`Strategy.to_openspiel_policy <cfrlib.strategy.Strategy.to_openspiel_policy>` and
:meth:`Strategy.from_openspiel_policy <cfrlib.strategy.Strategy.from_openspiel_policy>` carry
strategies across, keyed by the same strings and OpenSpiel's action ids.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..errors import CfrlibError, GameError
from ..game import CHANCE, TERMINAL
from .explicit import ExplicitGame, Node

__all__ = ["OpenSpielGame", "from_openspiel"]

MAX_NODES = 5_000_000
"""The largest tree :func:`from_openspiel` walks unless told otherwise (a walk through
OpenSpiel's Python bindings visits some 100,000 states a second)."""


class OpenSpielGame(ExplicitGame):
    """An OpenSpiel game as an explicit tree. ``openspiel_game`` is the ``pyspiel.Game``;
    ``action_ids[(player, infoset)][name]`` is OpenSpiel's id of the action ``name`` there, and
    ``histories[(player, infoset)]`` the action ids of one history that reaches the infoset."""

    def __init__(self, nodes: list[Node], openspiel_game: Any,
                 action_ids: dict[tuple[int, str], dict[str, int]],
                 histories: dict[tuple[int, str], list[int]]):
        super().__init__(nodes, name=f"openspiel:{openspiel_game}")
        self.openspiel_game = openspiel_game
        self.action_ids, self.histories = action_ids, histories

    def tabular_policy(self, strategy: Any) -> Any:
        """``strategy`` (a :class:`~cfrlib.strategy.Strategy` of this game) as an OpenSpiel
        ``TabularPolicy``: each infoset's row, found by its information state string, holds the
        strategy's probabilities at OpenSpiel's action ids (zero for the other actions)."""
        from open_spiel.python.policy import TabularPolicy

        policy = TabularPolicy(self.openspiel_game)
        policy.action_probability_array[:] = 0.0
        for key, ids in self.action_ids.items():
            row = policy.state_lookup[key[1]]
            for name, p in strategy[key].items():
                policy.action_probability_array[row, ids[name]] = p
        return policy


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as err:
        raise CfrlibError("OpenSpiel is not installed: pip install open_spiel "
                          "(cfrlib's extra 'openspiel')") from err
    return pyspiel


def from_openspiel(game: Any, max_nodes: int = MAX_NODES, **params: Any) -> OpenSpielGame:
    """The OpenSpiel game ``game`` (a ``pyspiel.Game``, or a name such as ``"kuhn_poker"`` or
    ``"liars_dice(dice_sides=3)"``, loaded with ``params``) as a cfrlib game, walked breadth
    first.

    A game with simultaneous moves (goofspiel, matrix games) is first made turn-based by
    OpenSpiel's ``convert_to_turn_based``, in which the second mover does not see the first
    move. Refused with a :class:`~cfrlib.errors.GameError` that says why: not two players, not
    zero- or constant-sum, chance that is only sampled, no information state strings, or more
    than ``max_nodes`` histories.
    """
    pyspiel = _pyspiel()
    if isinstance(game, str):
        try:
            game = pyspiel.load_game(game, params) if params else pyspiel.load_game(game)
        except pyspiel.SpielError as err:
            reason = str(err).splitlines()[0]
            raise GameError(f"from_openspiel: OpenSpiel cannot load {game!r}"
                            f"{f' with {params}' if params else ''}: {reason}") from None
    elif params:
        raise GameError(f"from_openspiel: parameters {params} are for a game given by name")
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)   # the second mover does not see the first
    kind = game.get_type()
    problems = [
        f"{game.num_players()} players, not 2" if game.num_players() != 2 else "",
        f"its utility is {kind.utility.name}" if kind.utility not in (
            pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM) else "",
        "its chance outcomes are only sampled" if kind.chance_mode
        == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC else "",
        "it gives no information state strings" if not kind.provides_information_state_string else "",
    ]
    if any(problems):
        raise GameError(f"from_openspiel: {game} is not a two-player zero-sum game with explicit "
                        f"chance: {'; '.join(p for p in problems if p)}")
    nodes: list[Node] = []
    action_ids: dict[tuple[int, str], dict[str, int]] = {}
    histories: dict[tuple[int, str], list[int]] = {}
    frontier = deque([game.new_initial_state()])
    while frontier:
        if len(nodes) + len(frontier) > max_nodes:
            raise GameError(f"from_openspiel: {game} has more than max_nodes={max_nodes:,} "
                            "histories; pass a larger max_nodes to walk it")
        state = frontier.popleft()
        if state.is_terminal():
            nodes.append(Node(TERMINAL, payoffs=tuple(float(u) for u in state.returns())))
            continue
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            player, infoset = CHANCE, None
        else:
            player = state.current_player()
            ids, probs = tuple(state.legal_actions()), ()
            infoset = state.information_state_string(player)
        labels = _names(state, player, ids)
        if infoset is not None:
            action_ids.setdefault((player, infoset), dict(zip(labels, ids)))
            histories.setdefault((player, infoset), list(state.history()))
        first = len(nodes) + 1 + len(frontier)
        frontier.extend(state.child(a) for a in ids)
        nodes.append(Node(player, infoset, labels, tuple(range(first, first + len(ids))),
                          tuple(float(q) for q in probs)))
    return OpenSpielGame(nodes, game, action_ids, histories)


def _names(state: Any, player: int, ids: tuple[int, ...]) -> tuple[str, ...]:
    """``action_to_string`` of each action, with its id added where two would be equal."""
    names = [state.action_to_string(player, a) for a in ids]
    if len(set(names)) < len(names):
        names = [f"{name} ({a})" for name, a in zip(names, ids)]
    return tuple(names)
