"""Compiling a game into flat numpy arrays.

The game is walked once, breadth first, so that nodes come in *level order*: the root, then
every node at depth 1, then depth 2, and so on, and the children of a node are contiguous.
Information sets get dense indices ``0 .. num_infosets - 1`` and every array of the solvers is
indexed by ``(infoset, action)``, padded to ``max_actions`` columns with :attr:`Tree.action_mask`
marking the legal ones.

Besides the node arrays, the tree keeps the *sequence form* of the game, which is what makes the
solvers fast. A player's sequence is an (infoset, action) pair ``(I, a)``, numbered
``I * max_actions + a``; the empty sequence has the number :attr:`Tree.empty_sequence`. With
perfect recall every infoset ``I`` of player ``i`` has a unique parent sequence (the last action
``i`` took before reaching ``I``) and every terminal ``z`` has, for each player, a last sequence.
Reach probabilities then factor as

    pi^sigma(z) = pi_c(z) * x_0[seq_0(z)] * x_1[seq_1(z)],
    x_i[(I, a)] = x_i[parent(I)] * sigma(I, a)        (the realization plan of player i),

so a whole tree traversal becomes a few vectorized passes over terminals and over infosets,
one level of each player's own decisions at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .errors import (
    ChanceProbabilityError,
    GameError,
    ImperfectRecallError,
    InfosetMismatchError,
    NotZeroSumError,
)
from .players import CHANCE, TERMINAL

_SEQ_BASE = 1 << 20  # temporary (infoset, action) encoding while the number of actions is unknown


@dataclass(eq=False)
class Tree:
    """A game compiled to arrays. Build it with ``game.tree()``.

    Node arrays (length :attr:`num_nodes`, level order, root first):
    ``parent`` (-1 at the root), ``depth``, ``player`` (0, 1, ``CHANCE`` or ``TERMINAL``),
    ``infoset`` (-1 off decision nodes), ``action`` (index of the edge from the parent in the
    parent's action list, -1 at the root), ``chance_prob`` (probability of that edge when the
    parent is a chance node, else 1), ``chance_reach`` (``pi_c(h)``), ``payoff`` (player 0's
    utility at terminals, 0 elsewhere), ``first_child`` and ``num_children``.
    ``level_offsets[d]:level_offsets[d + 1]`` are the nodes at depth ``d``.

    Infoset arrays (length :attr:`num_infosets`): ``infoset_player``, ``infoset_num_actions``,
    ``infoset_keys``, ``infoset_actions`` (action names), ``infoset_parent_seq``,
    ``infoset_own_depth`` (how many actions the player took before), ``infoset_node`` (one node
    of the infoset) and ``action_mask`` (``num_infosets x max_actions``).

    Terminal arrays (length :attr:`num_terminals`): ``terminal_node``, ``terminal_payoff``,
    ``terminal_chance`` (``pi_c(z)``) and ``terminal_seq`` (``2 x num_terminals``: each player's
    last sequence before ``z``).
    """

    game_name: str
    constant_sum: float
    parent: np.ndarray
    depth: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    action: np.ndarray
    chance_prob: np.ndarray
    chance_reach: np.ndarray
    payoff: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    level_offsets: np.ndarray
    infoset_player: np.ndarray
    infoset_num_actions: np.ndarray
    infoset_keys: list
    infoset_actions: list
    infoset_parent_seq: np.ndarray
    infoset_own_depth: np.ndarray
    infoset_node: np.ndarray
    action_mask: np.ndarray
    terminal_node: np.ndarray
    terminal_payoff: np.ndarray
    terminal_chance: np.ndarray
    terminal_seq: np.ndarray
    _index: dict = field(repr=False, default_factory=dict)

    # ----------------------------------------------------------------------------- sizes
    @property
    def num_nodes(self) -> int:
        """Number of histories, chance and terminal nodes included."""
        return len(self.parent)

    @property
    def num_infosets(self) -> int:
        """Number of information sets of both players."""
        return len(self.infoset_player)

    @property
    def num_terminals(self) -> int:
        """Number of terminal histories ``|Z|``."""
        return len(self.terminal_node)

    @property
    def max_actions(self) -> int:
        """Width of the ``(infoset, action)`` arrays: the largest ``|A(I)|``."""
        return self.action_mask.shape[1]

    @property
    def num_sequences(self) -> int:
        """Size of the sequence arrays without the empty sequence: ``num_infosets * max_actions``."""
        return self.action_mask.size

    @property
    def empty_sequence(self) -> int:
        """Index of the empty sequence (the last slot of every flat sequence array)."""
        return self.action_mask.size

    @property
    def depth_max(self) -> int:
        """Length of the longest history."""
        return len(self.level_offsets) - 2

    def num_infosets_of(self, player: int) -> int:
        """Number of information sets where ``player`` acts."""
        return int(np.count_nonzero(self.infoset_player == player))

    def infoset_index(self, player: int, key: str) -> int:
        """Dense index of ``player``'s infoset called ``key`` (``KeyError`` if there is none)."""
        return self._index[(player, key)]

    def has_infoset(self, player: int, key: str) -> bool:
        return (player, key) in self._index

    def infoset_levels(self, player: int) -> list[np.ndarray]:
        """``player``'s infosets grouped by own depth, shallowest first (cached)."""
        cache = self.__dict__.setdefault("_levels", {})
        if player not in cache:
            mine = np.flatnonzero(self.infoset_player == player)
            depths = self.infoset_own_depth[mine]
            cache[player] = [mine[depths == d] for d in range(int(depths.max(initial=-1)) + 1)]
            cache[player] = [level for level in cache[player] if level.size]
        return cache[player]

    def __repr__(self) -> str:
        return (
            f"Tree({self.game_name}: {self.num_nodes:,} nodes, {self.num_terminals:,} terminals, "
            f"{self.num_infosets:,} infosets, depth {self.depth_max})"
        )


def compile_game(game) -> Tree:
    """Walk ``game`` breadth first and return its :class:`Tree`, validating it on the way.

    Raises :class:`~cfrlib.errors.ChanceProbabilityError`, :class:`~cfrlib.errors.NotZeroSumError`,
    :class:`~cfrlib.errors.InfosetMismatchError` or :class:`~cfrlib.errors.ImperfectRecallError`
    naming the offending history or infoset.
    """
    constant = float(game.constant_sum)
    tolerance = float(game.sum_tolerance)
    scoped = bool(getattr(game, "player_scoped_infosets", False))

    states = [game.initial_state()]
    histories = [()]  # action path of each pending node, kept only for error messages
    parent, depth, action, chance_prob, chance_reach = [-1], [0], [-1], [1.0], [1.0]
    last_seq = [(-1, -1)]  # each player's last (encoded) sequence on the path
    player, infoset, payoff, first_child, num_children = [], [], [], [], []

    index: dict = {}
    inf_player, inf_key, inf_actions, inf_parent_seq, inf_node = [], [], [], [], []

    i = 0
    while i < len(states):
        state = states[i]
        states[i] = None  # the walk keeps only the frontier alive
        p = state.current_player()
        player.append(p)
        first_child.append(len(states))
        if p == TERMINAL:
            u = state.returns()
            if len(u) != 2 or not all(math.isfinite(float(v)) for v in u):
                raise GameError(f"terminal {_path(histories[i])}: returns() gave {u!r}, "
                                "expected two finite payoffs")
            u0, u1 = float(u[0]), float(u[1])
            if abs(u0 + u1 - constant) > tolerance * max(1.0, abs(u0) + abs(u1)):
                raise NotZeroSumError(
                    f"terminal {_path(histories[i])}: payoffs ({u0:g}, {u1:g}) sum to "
                    f"{u0 + u1:g}, but {game.name} is a constant-sum game with sum {constant:g}")
            payoff.append(u0)
            infoset.append(-1)
            num_children.append(0)
            histories[i] = None
            i += 1
            continue
        payoff.append(0.0)
        seq = last_seq[i]
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            probs = [float(q) for _, q in outcomes]
            if not outcomes or any(not (q >= 0.0) for q in probs) or abs(sum(probs) - 1.0) > 1e-9:
                raise ChanceProbabilityError(
                    f"chance node {_path(histories[i])}: outcome probabilities {probs} "
                    "must be non-negative and sum to 1")
            infoset.append(-1)
            num_children.append(len(outcomes))
            for a, (name, q) in enumerate(outcomes):
                states.append(state.child(name))
                histories.append(histories[i] + (name,))
                parent.append(i), depth.append(depth[i] + 1), action.append(a)
                chance_prob.append(float(q)), chance_reach.append(chance_reach[i] * float(q))
                last_seq.append(seq)
        elif p in (0, 1):
            key = state.infoset_key()
            actions = tuple(state.legal_actions())
            if not actions or len(actions) >= _SEQ_BASE:
                raise GameError(f"player {p} has {len(actions)} legal actions at "
                                f"{_path(histories[i])} (infoset {key!r})")
            ident = (p, key)
            I = index.get(ident)
            if I is None and not scoped and (1 - p, key) in index:
                other = index[(1 - p, key)]
                raise InfosetMismatchError(
                    f"infoset {key!r}: player {p} acts at {_path(histories[i])} but player "
                    f"{1 - p} acts at {_path(histories[inf_node[other]])} in the same infoset (a game "
                    "whose infoset names are per player sets player_scoped_infosets = True)")
            if I is None:
                I = index[ident] = len(inf_player)
                if len(set(actions)) != len(actions):
                    raise GameError(f"infoset {key!r} of player {p}: repeated action names {actions}")
                inf_player.append(p), inf_key.append(key), inf_actions.append(actions)
                inf_parent_seq.append(seq[p]), inf_node.append(i)
            else:
                if inf_actions[I] != actions:
                    raise InfosetMismatchError(
                        f"infoset {key!r} of player {p}: history {_path(histories[i])} allows "
                        f"actions {list(actions)} but {_path(histories[inf_node[I]])} "
                        f"allows {list(inf_actions[I])}")
                if inf_parent_seq[I] != seq[p]:
                    raise ImperfectRecallError(
                        f"infoset {key!r} of player {p}: histories {_path(histories[i])} and "
                        f"{_path(histories[inf_node[I]])} differ in "
                        f"what player {p} did or knew before; the player would forget it")
            infoset.append(I)
            num_children.append(len(actions))
            for a, name in enumerate(actions):
                states.append(state.child(name))
                histories.append(histories[i] + (name,))
                parent.append(i), depth.append(depth[i] + 1), action.append(a)
                chance_prob.append(1.0), chance_reach.append(chance_reach[i])
                last_seq.append((I * _SEQ_BASE + a, seq[1]) if p == 0 else (seq[0], I * _SEQ_BASE + a))
        else:
            raise GameError(f"history {_path(histories[i])}: current_player() returned {p!r}, "
                            "expected 0, 1, CHANCE or TERMINAL")
        if p == CHANCE or inf_node[infoset[i]] != i:
            histories[i] = None  # keep only the first history of each infoset, for messages
        i += 1

    n_inf = len(inf_player)
    if n_inf == 0:
        raise GameError(f"{game.name} has no decision for either player")
    width = max(len(a) for a in inf_actions)
    num_actions = np.array([len(a) for a in inf_actions], dtype=np.int64)
    mask = np.arange(width)[None, :] < num_actions[:, None]

    def recode(encoded):
        encoded = np.asarray(encoded, dtype=np.int64)
        out = (encoded // _SEQ_BASE) * width + encoded % _SEQ_BASE
        return np.where(encoded < 0, n_inf * width, out)

    player_arr = np.array(player, dtype=np.int8)
    terminal_node = np.flatnonzero(player_arr == TERMINAL)
    seq_arr = np.array(last_seq, dtype=np.int64)
    depth_arr = np.array(depth, dtype=np.int32)
    parent_seq = recode(inf_parent_seq)
    own_depth = np.zeros(n_inf, dtype=np.int32)
    # Parents of an infoset are created before it (breadth first), so one forward sweep works.
    for I in range(n_inf):
        ps = parent_seq[I]
        own_depth[I] = 0 if ps == n_inf * width else own_depth[ps // width] + 1

    chance_reach_arr = np.array(chance_reach)
    payoff_arr = np.array(payoff)
    tree = Tree(
        game_name=game.name,
        constant_sum=constant,
        parent=np.array(parent, dtype=np.int64),
        depth=depth_arr,
        player=player_arr,
        infoset=np.array(infoset, dtype=np.int64),
        action=np.array(action, dtype=np.int64),
        chance_prob=np.array(chance_prob),
        chance_reach=chance_reach_arr,
        payoff=payoff_arr,
        first_child=np.array(first_child, dtype=np.int64),
        num_children=np.array(num_children, dtype=np.int64),
        level_offsets=np.searchsorted(depth_arr, np.arange(depth_arr[-1] + 2)).astype(np.int64),
        infoset_player=np.array(inf_player, dtype=np.int8),
        infoset_num_actions=num_actions,
        infoset_keys=inf_key,
        infoset_actions=inf_actions,
        infoset_parent_seq=parent_seq,
        infoset_own_depth=own_depth,
        infoset_node=np.array(inf_node, dtype=np.int64),
        action_mask=mask,
        terminal_node=terminal_node,
        terminal_payoff=payoff_arr[terminal_node],
        terminal_chance=chance_reach_arr[terminal_node],
        terminal_seq=np.stack([recode(seq_arr[terminal_node, 0]), recode(seq_arr[terminal_node, 1])]),
        _index=index,
    )
    for arr in (tree.parent, tree.depth, tree.player, tree.infoset, tree.action, tree.chance_prob,
                tree.chance_reach, tree.payoff, tree.first_child, tree.num_children, tree.level_offsets,
                tree.infoset_player, tree.infoset_num_actions, tree.infoset_parent_seq,
                tree.infoset_own_depth, tree.infoset_node, tree.action_mask, tree.terminal_node,
                tree.terminal_payoff, tree.terminal_chance, tree.terminal_seq):
        arr.flags.writeable = False
    return tree


def _path(history) -> str:
    return "'" + " ".join(str(a) for a in history) + "'" if history else "at the root"
