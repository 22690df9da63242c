"""The compiler of cfrlib 0.x before issue 16, kept verbatim as the slow, readable reference:
one Python loop over the states, breadth first, bookkeeping per node. The tests compare every
array of :func:`cfrlib.tree.compile_game` with the ones this builds."""

import math

import numpy as np

from cfrlib.errors import (ChanceProbabilityError, GameError, ImperfectRecallError,
                           InfosetMismatchError, NotZeroSumError)
from cfrlib.players import CHANCE, TERMINAL
from cfrlib.tree import Tree

_SEQ_BASE = 1 << 20  # temporary (infoset, action) encoding while the number of actions is unknown


def reference_compile(game) -> Tree:
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
