"""A solved hold'em spot to walk in the page, with no kernel: a self-contained HTML and JavaScript widget.

:class:`SpotExplorer` reads a :class:`cfrlib.holdem.RangeSolver` once, at build time, and writes
into one ``text/html`` output every player node of the spot's first street and, below each chance
node, the nodes that follow a few chosen cards (a page cannot carry all 48 rivers of a turn spot).
For each node it keeps, for every hand of the player to act:

* the average strategy ``sigma-bar(a | h)`` (per mille),
* the reach ``pi(h)``: the range's weight times the probability of that player's own actions on
  the way (zero for a hand holding a card of the board), in ten-thousandths,
* the expected value in chips when both play the average strategies from there on
  (:meth:`~cfrlib.holdem.RangeSolver.hand_values`, starting pot included), in tenths of a chip,
* the equity against the opponent's hands that reach the node
  (:meth:`~cfrlib.holdem.RangeSolver.equity`), per mille.

The page draws the 13x13 grid of hand classes (pairs on the diagonal, suited above it, offsuit
below) from them: a class's action mix is ``sum_h pi(h) sigma-bar(a | h) / sum_h pi(h)`` over its
hands, the same weighting as :meth:`~cfrlib.holdem.RangeSolver.grid`, drawn as coloured bands, one
per action, as wide as its frequency. Clicking an action walks the tree; clicking a class lists its
hands with their strategy, EV and equity. ``root.cfrlibSpot`` (``root`` the widget's element) is
the interface the buttons use, also for tests: ``go(node)``, ``pick(cell)``, ``state()``.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cfrlib.holdem import RangeSolver
from cfrlib.holdem.cards import card, card_str, format_cards
from cfrlib.holdem.game import CARD, COUNT, FIRST, KIND, RangeGame
from cfrlib.holdem.tree import CHANCE, FOLD, PLAYER

from .errors import ExplorerError

MAX_NODES = 600
"""Most player nodes one explorer may carry (each costs about 4 kB of the page on a turn spot)."""

ACTION_COLORS = {"Fold": "#56B4E9", "Check": "#009E73", "Call": "#009E73", "AllIn": "#7A1C1C"}
"""The colour of each kind of action; bets and raises get :data:`BET_COLORS` by size."""
BET_COLORS = ("#E69F00", "#D55E00", "#B03A2E")
"""Bets and raises at one node, smallest first (the last repeats for more sizes)."""

PLAYER_NAMES = ("OOP", "IP")


def grid_cells(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The cell ``13 * row + column`` of each two-card hand on the 13x13 grid: rows and columns
    A, K, ..., 2, pairs on the diagonal, suited hands above it (row = the higher rank), offsuit
    below (column = the higher rank), as :meth:`cfrlib.holdem.RangeSolver.grid` lays them out."""
    ranks, suits = hands // 4, hands % 4
    high, low = 12 - ranks.max(axis=1), 12 - ranks.min(axis=1)
    suited = suits[:, 0] == suits[:, 1]
    return np.where(suited, 13 * high + low, 13 * low + high).astype(np.int64)


def action_colors(actions: list[str]) -> list[str]:
    """One colour per action (printed as ``Bet(120)``), bets and raises by increasing size."""
    out, bets = [], 0
    for name in actions:
        kind = name.split("(")[0]
        if kind in ("Bet", "Raise"):
            out.append(BET_COLORS[min(bets, len(BET_COLORS) - 1)])
            bets += 1
        else:
            out.append(ACTION_COLORS[kind])
    return out


def _scaled(values: NDArray[np.float64], scale: float) -> list[int | None]:
    """``round(value * scale)`` as ints, None where the value is NaN."""
    return [None if math.isnan(v) else int(round(v * scale)) for v in values.tolist()]


class SpotExplorer:
    """The spot solved by ``solver`` to walk in the page (see the module docstring).

    ``cards`` are the cards followed below each chance node (text such as ``"2s"``); ``title`` a
    heading above the widget. Raises :class:`~cfrbook.errors.ExplorerError` for a game other than
    a hold'em spot, a card that cannot be dealt, or more than :data:`MAX_NODES` player nodes."""

    def __init__(self, solver: RangeSolver, cards: tuple[str, ...] = (), *, title: str = "") -> None:
        game = solver.game
        if not isinstance(game, RangeGame) or game.cards_per_hand != 2 or game.deck_size != 52:
            raise ExplorerError("SpotExplorer needs a solver of a hold'em spot (two cards a hand, 52 cards)")
        if game.names is None:
            raise ExplorerError("SpotExplorer needs a game whose hands have names (holdem_game gives them)")
        self.names: list[list[str]] = game.names
        self.solver, self.title = solver, title
        self.cards = [card(c) for c in cards]
        taken = set(game.board) & set(self.cards)
        if taken:
            raise ExplorerError(f"SpotExplorer: {format_cards(sorted(taken))} is on the board already")
        self.tables = self._tables()

    def _tables(self) -> dict[str, Any]:
        """What the page's script reads: the hands of each player and their grid cells, and the
        nodes (parents before children), each with its path, player, actions and children
        (a node index, or a string saying how the hand ends)."""
        solver, game = self.solver, self.solver.game
        nodes: list[dict[str, Any]] = []
        tree = game.game_tree
        pending: list[tuple[list[str | int], list[NDArray[np.float64]], int, Any]] = [([], [w.copy() for w in game.weights], -1, -1)]
        while pending:
            path, reach, parent, slot = pending.pop(0)
            i = solver.node_index(path)
            public = tree.public[i]
            q = public.player
            actions = solver.actions(path)
            strategy = solver.strategy(path)
            children: list[Any] = []
            node: dict[str, Any] = {"path": [card_str(s) if isinstance(s, int) else s for s in path], "player": q,
                    "board": format_cards(tree.board_at[i]),
                    "pot": game.starting_pot + 2 * public.amount, "actions": actions,
                    "colors": action_colors(actions), "children": children,
                    "strategy": [_scaled(row, 1000) for row in strategy],
                    "reach": _scaled(reach[q], 10000),
                    "ev": _scaled(solver.hand_values(q, path), 10),
                    "equity": _scaled(solver.equity(q, path), 1000)}
            if isinstance(slot, tuple):  # a card dealt below the parent's action slot[0]
                nodes[parent]["children"][slot[0]]["deal"][slot[1]] = len(nodes)
            elif parent >= 0:
                nodes[parent]["children"][slot] = len(nodes)
            nodes.append(node)
            if len(nodes) > MAX_NODES:
                raise ExplorerError(f"SpotExplorer: more than {MAX_NODES} player nodes; follow fewer cards")
            first = int(tree.nodes[i, FIRST])
            for a, name in enumerate(actions):
                child = first + a
                after = [r.copy() for r in reach]
                after[q] = after[q] * strategy[a]
                kind = int(tree.nodes[child, KIND])
                children.append(None)
                if kind == PLAYER:
                    pending.append((path + [name], after, len(nodes) - 1, a))
                elif kind == FOLD:
                    children[a] = f"{PLAYER_NAMES[q]} folds; {PLAYER_NAMES[1 - q]} wins the pot"
                elif kind == CHANCE:
                    children[a] = self._deal(path + [name], child, after, pending, len(nodes) - 1, a)
                else:
                    children[a] = "showdown"
        return {"board": format_cards(game.board), "pot": game.starting_pot,
                "stack": game.tree.config.effective_stack, "players": list(PLAYER_NAMES),
                "hands": [list(self.names[p]) for p in range(2)],
                "cells": [grid_cells(game.hands[p]).tolist() for p in range(2)], "nodes": nodes}

    def _deal(self, path: list[str | int], chance: int, reach: list[NDArray[np.float64]],
              pending: list[Any], parent: int, slot: int) -> dict[str, Any] | str:
        """The followed cards below a chance node: ``{"deal": {card: node index or ending}}``,
        filled in as the walk reaches them (a card dealt into an all-in ends at a showdown)."""
        game, tree = self.solver.game, self.solver.game.game_tree
        first, count = int(tree.nodes[chance, FIRST]), int(tree.nodes[chance, COUNT])
        dealt = {int(tree.nodes[first + k, CARD]): first + k for k in range(count)}
        if any(c not in dealt for c in self.cards):
            raise ExplorerError(f"SpotExplorer: cannot deal {format_cards(c for c in self.cards if c not in dealt)} "
                                f"after {path}")
        out: dict[str, Any] = {}
        for c in self.cards:
            if int(tree.nodes[dealt[c], KIND]) != PLAYER:
                out[card_str(c)] = "showdown"
                continue
            after = [r.copy() for r in reach]
            for p in range(2):
                after[p][game.holds[p][c]] = 0.0
            out[card_str(c)] = None
            pending.append((path + [c], after, parent, (slot, card_str(c))))
        return {"deal": out}

    def static_html(self) -> str:
        """The widget as one self-contained HTML fragment: its tables as JSON and the script."""
        payload = json.dumps(self.tables, separators=(",", ":")).replace("</", "<\\/")
        key = hashlib.sha256(payload.encode()).hexdigest()[:12]
        title = f'<p class="cfrlib-spot-title"><strong>{html.escape(self.title)}</strong></p>' if self.title else ""
        return (f'<div class="cfrlib-spot" id="cfrlib-spot-{key}">{_STYLE}{title}'
                f'<p class="cfrlib-spot-where" aria-live="polite"></p>'
                f'<div class="cfrlib-spot-path" role="group" aria-label="the actions so far"></div>'
                f'<div class="cfrlib-spot-actions" role="group" aria-label="the actions here"></div>'
                f'<div class="cfrlib-spot-grid" role="grid" aria-label="the 13x13 grid of hands"></div>'
                f'<div class="cfrlib-spot-hand" aria-live="polite"></div>'
                f'<script type="application/json" class="cfrlib-spot-data">{payload}</script>'
                f"<script>{_SCRIPT}</script></div>")

    def __repr__(self) -> str:
        nodes = self.tables["nodes"]
        return f"SpotExplorer({self.tables['board']}: {len(nodes)} player nodes)"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        return {"text/plain": repr(self), "text/html": self.static_html()}


_STYLE = """<style>
.cfrlib-spot{font-size:.9rem;max-width:40rem}
.cfrlib-spot button{font:inherit;margin:.15rem .25rem .15rem 0;padding:.2rem .5rem;border:1px solid #888;
border-radius:.3rem;background:#fff;color:#000;cursor:pointer;min-height:44px}
.cfrlib-spot button:disabled{cursor:default;opacity:.6}
.cfrlib-spot-actions button{border-left:.8rem solid var(--c)}
.cfrlib-spot-path button{border-style:dashed}
.cfrlib-spot-grid{display:grid;grid-template-columns:repeat(13,1fr);gap:1px;margin:.4rem 0;max-width:34rem}
.cfrlib-spot-grid div{aspect-ratio:1;position:relative;font-size:clamp(.5rem,1.9vw,.72rem);line-height:1;
cursor:pointer;background:#e8e8e8;overflow:hidden}
.cfrlib-spot-grid div span{position:absolute;left:1px;top:1px;color:#000;background:rgba(255,255,255,.75);
padding:0 1px;border-radius:2px}
.cfrlib-spot-grid div.picked{outline:2px solid #000;z-index:1}
.cfrlib-spot-hand table{border-collapse:collapse;font-size:.8rem}
.cfrlib-spot-hand td,.cfrlib-spot-hand th{padding:.1rem .4rem;text-align:right;border-bottom:1px solid #ddd}
</style>"""

_SCRIPT = r"""
(function () {
  const root = document.currentScript.parentElement;
  const data = JSON.parse(root.querySelector('.cfrlib-spot-data').textContent);
  const R = 'AKQJT98765432';
  const where = root.querySelector('.cfrlib-spot-where');
  const pathBox = root.querySelector('.cfrlib-spot-path');
  const actBox = root.querySelector('.cfrlib-spot-actions');
  const gridBox = root.querySelector('.cfrlib-spot-grid');
  const handBox = root.querySelector('.cfrlib-spot-hand');
  let current = 0, picked = -1;
  const cellName = (c) => {
    const r = Math.floor(c / 13), k = c % 13;
    return r === k ? R[r] + R[k] : r < k ? R[r] + R[k] + 's' : R[k] + R[r] + 'o';
  };
  const pretty = (a) => a.replace('(', ' ').replace(')', '');
  function button(text, color, onclick) {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = text;
    if (color) b.style.setProperty('--c', color);
    if (onclick) b.onclick = onclick; else b.disabled = true;
    return b;
  }
  function mix(node) {  // per cell: reach and reach-weighted frequencies
    const cells = data.cells[node.player], w = new Array(169).fill(0);
    const f = node.actions.map(() => new Array(169).fill(0));
    node.reach.forEach((r, h) => {
      if (!r) return;
      w[cells[h]] += r;
      node.strategy.forEach((s, a) => { f[a][cells[h]] += r * s[h] / 1000; });
    });
    return {w, f};
  }
  function go(n) {
    current = n; picked = -1;
    const node = data.nodes[n];
    where.textContent = data.players[node.player] + ' to act \u00b7 board ' + node.board + ' \u00b7 pot ' + node.pot;
    pathBox.replaceChildren(button('start', null, n ? () => go(0) : null));
    node.path.forEach((step, k) => {
      const target = locate(node.path.slice(0, k + 1));
      pathBox.append(button(pretty(step), null, target !== n && target !== null ? () => go(target) : null));
    });
    const {w, f} = mix(node);
    const total = w.reduce((x, y) => x + y, 0);
    actBox.replaceChildren();
    node.actions.forEach((a, k) => {
      const freq = total ? f[k].reduce((x, y) => x + y, 0) / total : 0;
      const child = node.children[k];
      const label = pretty(a) + ' ' + (100 * freq).toFixed(1) + '%';
      if (typeof child === 'number') actBox.append(button(label, node.colors[k], () => go(child)));
      else if (child && child.deal) {
        const b = button(label + ' \u2192 river:', node.colors[k], null);
        actBox.append(b);
        Object.entries(child.deal).forEach(([c, m]) => {
          actBox.append(button(c, node.colors[k], typeof m === 'number' ? () => go(m) : null));
        });
      } else {
        const b = button(label, node.colors[k], null);
        b.title = child; actBox.append(b);
      }
    });
    gridBox.replaceChildren();
    for (let c = 0; c < 169; c++) {
      const d = document.createElement('div');
      d.setAttribute('role', 'gridcell');
      const s = document.createElement('span'); s.textContent = cellName(c); d.append(s);
      if (w[c] > 0) {
        let x = 0; const stops = [];
        node.actions.forEach((a, k) => {
          const y = x + 100 * f[k][c] / w[c];
          stops.push(node.colors[k] + ' ' + x.toFixed(1) + '% ' + y.toFixed(1) + '%'); x = y;
        });
        d.style.background = 'linear-gradient(to right,' + stops.join(',') + ')';
      }
      d.onclick = () => pick(c);
      gridBox.append(d);
    }
    handBox.textContent = 'Click a hand class on the grid for its hands.';
  }
  function locate(path) {  // the node index of a path of steps (an action, or the card it deals), or null
    let n = 0;
    for (let k = 0; k < path.length; k++) {
      const node = data.nodes[n], a = node.actions.indexOf(path[k]);
      const child = a < 0 ? null : node.children[a];
      if (typeof child === 'number') n = child;
      else if (child && child.deal && typeof child.deal[path[k + 1]] === 'number') n = child.deal[path[++k]];
      else return null;
    }
    return n;
  }
  function pick(c) {
    const node = data.nodes[current], cells = data.cells[node.player];
    picked = c;
    gridBox.querySelectorAll('div').forEach((d, k) => d.classList.toggle('picked', k === c));
    const rows = [];
    cells.forEach((cell, h) => { if (cell === c && node.reach[h] > 0) rows.push(h); });
    if (!rows.length) { handBox.textContent = cellName(c) + ': not in ' + data.players[node.player] + "'s range here."; return; }
    const t = document.createElement('table');
    const head = ['hand', 'reach', ...node.actions.map(pretty), 'EV', 'equity'];
    t.innerHTML = '<thead><tr>' + head.map((x) => '<th>' + x + '</th>').join('') + '</tr></thead>';
    const body = document.createElement('tbody');
    rows.forEach((h) => {
      const cols = [data.hands[node.player][h], (node.reach[h] / 10000).toFixed(3),
        ...node.strategy.map((s) => (s[h] / 10).toFixed(1) + '%'),
        node.ev[h] === null ? '\u2013' : (node.ev[h] / 10).toFixed(1),
        node.equity[h] === null ? '\u2013' : (node.equity[h] / 10).toFixed(1) + '%'];
      const tr = document.createElement('tr');
      tr.innerHTML = cols.map((x) => '<td>' + x + '</td>').join('');
      body.append(tr);
    });
    t.append(body);
    handBox.replaceChildren(t);
  }
  root.cfrlibSpot = {go, pick, locate, state: () => ({node: current, picked, path: data.nodes[current].path,
    actions: Array.from(actBox.querySelectorAll('button')).map((b) => b.textContent)})};
  go(0);
})();
"""
