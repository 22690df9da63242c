"""Play a solved game against its strategy in the page: a self-contained HTML and JavaScript widget.

:class:`PlayWidget` exports a game and a strategy profile at build time into one ``text/html``
output: the game's tree as flat tables and, for every infoset, the bot's probabilities and what
a best response to the bot would do there. In the page the reader picks a seat, deals, and plays
hands against the bot, which draws its moves from the exported probabilities; no kernel, server
or network is involved, and the page works from ``file://``. The hand is told in words as it
goes ("You: K. You bet, the bot folds. You win 1."), with the pot and each player's stake; at
the end the bot's card and, at each of its decisions, the probabilities it played. A running
tally per seat, and over both seats, gives the hands played, the reader's total and mean result
with its standard error ``s / sqrt(n)``, next to the value of that seat, ``u_0(sigma)`` for
player 0 and ``constant_sum - u_0(sigma)`` for player 1 (:func:`cfrlib.expected_value`).

Poker words. The game's actions keep their own names in cfrlib (Kuhn's ``pass``/``bet``,
Leduc's ``fold``/``call``/``raise``); the buttons and the story name each move by what it does
to the chips (:func:`betting_word`): given ``stakes(h)``, the chips each player has put in at
history ``h``, a move of the player ``p`` to act from ``h`` to ``h a`` is

* a *check* if ``p``'s stake stays and nothing was owed, a *fold* if it stays while ``p`` owed;
* a *call* if it rises to the opponent's, a *bet* (nothing owed) or *raise* (owed) above it.

So Kuhn's pass is a check, or a fold facing a bet; its bet a bet, or a call facing one; Leduc's
call is a check when nothing is owed. Every history of an infoset must give an action the same
word (the reader sees one button).

The best-response hints show, at the reader's infoset ``I``, each action's expected result of
the hand for a reader who plays a best response from there on, given what the reader knows:

``E[u_i | I, a] = q_i(I, a) / sum_{h in I} pi_{-i}(h)``,

the counterfactual value of :func:`cfrlib.evaluation.counterfactual_values` (with
``best_response=True``) divided by the infoset's counterfactual reach, the probability that
chance and the bot lead to ``I``. A best response plays an action of largest value.

The page's JavaScript reads the tables and nothing else, so one script serves every game:
``root.cfrlibPlay`` (``root`` the widget's element) is the interface its buttons call, also
used by the tests: ``reset(seed)``, ``setSeat(i)``, ``deal()``, ``act(k)`` and ``state()`` (the
seat, the infoset, actions and words to act on, the stakes, the moves so far, the story, the
result and the tally, per seat and over both). The widget is redrawn once the calls of a script
have run (a microtask), not at each call: a script that plays thousands of hands draws once.
Random draws come from a seeded generator (mulberry32), seeded by ``seed`` or, without one, at
random when the page loads.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cfrlib.checks import sums_to_one
from cfrlib.errors import CfrlibError, StrategyError
from cfrlib.evaluation import best_response, counterfactual_values, expected_value
from cfrlib.game import Game, State
from cfrlib.games.kuhn import KuhnState
from cfrlib.games.leduc import LeducState
from cfrlib.strategy import StrategyLike, as_strategy
from cfrlib.tree import Tree, node_table

MAX_NODES = 100_000
"""Most nodes a game may have to be exported into a page (Leduc hold'em has 9,457; its widget
takes about 290 kB of the page)."""

SEED_LIMIT = 2**32
"""Seeds of the page's generator are integers in ``[0, SEED_LIMIT)``."""

Stakes = Callable[[State], Sequence[float]]
"""``stakes(h)``: the chips each player has put in the pot at history ``h``, ``(c_0, c_1)``."""


def kuhn_stakes(h: KuhnState) -> tuple[float, float]:
    """The chips each player has in the pot in Kuhn poker: the ante, 1, plus 1 for each of the
    player's bets (the betting string's letters alternate, player 0's first)."""
    return (1.0 + h.betting[0::2].count("b"), 1.0 + h.betting[1::2].count("b"))


def leduc_stakes(h: LeducState) -> tuple[float, float]:
    """The chips each player has in the pot in Leduc hold'em (the history keeps them)."""
    return (float(h.chips[0]), float(h.chips[1]))


def betting_word(before: Sequence[float], after: Sequence[float], player: int) -> str:
    """What a move of ``player`` that takes the stakes from ``before`` to ``after`` is called:
    with ``owed = before[1 - player] - before[player]`` and ``put = after[player] -
    before[player]``, check (``put = 0``, ``owed = 0``), fold (``put = 0``, ``owed > 0``), call
    (``put = owed > 0``), bet (``put > owed = 0``) or raise (``put > owed > 0``)."""
    owed = before[1 - player] - before[player]
    put = after[player] - before[player]
    if after[1 - player] != before[1 - player] or owed < 0 or put < 0 or 0 < put < owed:
        raise CfrlibError(f"betting_word: player {player} taking the stakes from "
                          f"{tuple(map(float, before))} to {tuple(map(float, after))} is no "
                          "fold, check, call, bet or raise")
    if put == 0:
        return "check" if owed == 0 else "fold"
    if put == owed:
        return "call"
    return "bet" if owed == 0 else "raise"


def infoset_reach(tree: Tree, probs: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """``sum_{h in I} pi_{-i}(h)`` for every infoset ``I`` of ``player`` (0 elsewhere): the
    probability that chance and the other player's ``probs`` lead to ``I``.

    One forward pass, level by level: ``pi_{-i}(h a) = pi_{-i}(h) * p(h, a)`` with ``p`` the
    chance probability at a chance node, ``sigma(I(h), a)`` at the other player's nodes and 1 at
    ``player``'s own."""
    factor = tree.chance_prob.copy()
    child = np.arange(1, tree.num_nodes)
    parent = tree.parent[1:]
    theirs = tree.player[parent] == 1 - player
    factor[child[theirs]] = probs[tree.infoset[parent[theirs]], tree.action[child[theirs]]]
    reach = np.ones(tree.num_nodes)
    for lo, hi in zip(tree.level_offsets[1:-1], tree.level_offsets[2:]):
        reach[lo:hi] = reach[tree.parent[lo:hi]] * factor[lo:hi]
    mine = np.flatnonzero(tree.player == player)
    return np.bincount(tree.infoset[mine], weights=reach[mine],
                       minlength=tree.num_infosets).astype(float)


class PlayWidget:
    """Hands of ``game`` against ``strategy`` in the page, with no kernel (see the module docstring).

    Parameters
    ----------
    game, strategy:
        The game and the bot's profile (both players' parts: the reader picks a seat and the
        bot plays the other one).
    title:
        A heading shown above the widget.
    stakes:
        ``stakes(h) -> (c_0, c_1)``, the chips each player has put in at history ``h``
        (:func:`kuhn_stakes`, :func:`leduc_stakes`): with it the page shows the pot and the
        stakes and names the moves fold, check, call, bet or raise (:func:`betting_word`);
        without it, by the game's action names.
    deal:
        Who each chance event of a hand deals to, in order: ``0`` or ``1`` for a card only that
        player sees, ``None`` for a card both see (a board card), so that the page can say "You:
        K", "Board: Qh" as the hand goes and "Bot: Q" at its end. Without it the page names the
        chance events "chance 1", ... at the end and tells the reader their infoset key.
    seed:
        Seed of the page's generator, an integer in ``[0, 2**32)``; ``None`` seeds it at random
        when the page loads.
    """

    def __init__(self, game: Game, strategy: StrategyLike, *, title: str = "",
                 stakes: Stakes | None = None, deal: Sequence[int | None] = (),
                 seed: int | None = None) -> None:
        tree = game.tree()
        if tree.num_nodes > MAX_NODES:
            raise CfrlibError(f"PlayWidget: {game.name} has {tree.num_nodes:,} nodes, more than "
                              f"the {MAX_NODES:,} a page can carry")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                                 or not 0 <= seed < SEED_LIMIT):
            raise CfrlibError(f"PlayWidget: seed must be None or an integer in [0, 2**32), "
                              f"got {seed!r}")
        if not all(d in (0, 1, None) and not isinstance(d, bool) for d in deal):
            raise CfrlibError(f"PlayWidget: deal must be a sequence of 0, 1 or None (who sees "
                              f"each chance event), got {deal!r}")
        probs = as_strategy(game, strategy).probs
        _check_distributions(tree, probs, game.name)
        self.game, self.tree, self.probs = game, tree, probs
        self.title, self.seed = title, None if seed is None else int(seed)
        self.tables = self._tables(stakes, list(deal))

    def _tables(self, stakes: Stakes | None, deal: list[int | None]) -> dict[str, Any]:
        """What the page's script reads: the tree's nodes (level order; the children of node
        ``n`` follow each other, so ``node_children`` places them), the stakes, the infosets with
        their actions' words, the bot's probabilities, the best-response values and the values
        of the seats."""
        game, tree, probs = self.game, self.tree, self.probs
        table = node_table(game)
        labels: dict[str, int] = {}
        edge = [-1] + [labels.setdefault(table.label_lists[table.labels[p]][a], len(labels))
                       for p, a in zip(tree.parent[1:].tolist(), tree.action[1:].tolist())]
        names = list(labels)
        chips = None if stakes is None else _node_stakes(game, tree, stakes, [names[e] for e in edge[1:]])
        legal = [tree.infoset_num_actions[I] for I in range(tree.num_infosets)]
        hint: list[list[float] | None] = [None] * tree.num_infosets
        for seat in (0, 1):
            q, _ = counterfactual_values(tree, probs, seat, best_response=True)
            grid = q[:-1].reshape(tree.action_mask.shape)
            reach = infoset_reach(tree, probs, seat)
            for I in np.flatnonzero((tree.infoset_player == seat) & (reach > 0)).tolist():
                hint[I] = (grid[I, :legal[I]] / reach[I]).tolist()
        value = expected_value(game, probs)
        return {
            "game": game.name,
            "constant_sum": float(tree.constant_sum),
            "node_player": tree.player.tolist(),
            "node_children": tree.num_children.tolist(),
            "node_infoset": tree.infoset.tolist(),
            "node_edge": edge,
            "node_chance": _compact(tree.chance_prob),
            "node_payoff": _compact(tree.payoff),
            "node_stakes": None if chips is None else _compact(chips.ravel()),
            "labels": names,
            "infoset_key": list(tree.infoset_keys),
            "infoset_player": tree.infoset_player.tolist(),
            "infoset_actions": [list(a) for a in tree.infoset_actions],
            "infoset_words": (_infoset_words(tree, chips) if chips is not None
                              else [list(a) for a in tree.infoset_actions]),
            "strategy": [_compact(probs[I, :legal[I]]) for I in range(tree.num_infosets)],
            "hint": hint,
            "value": [value, float(tree.constant_sum) - value],
            "response_value": [best_response(game, probs, seat).value for seat in (0, 1)],
            "deal": deal,
            "seed": self.seed,
        }

    def static_html(self) -> str:
        """The widget as one self-contained HTML fragment: controls, the tables as JSON and the
        script. The same tables give the same bytes (the radio group's name is a hash of them)."""
        payload = json.dumps(self.tables, separators=(",", ":")).replace("</", "<\\/")
        group = "cfrlib-play-" + hashlib.sha256(payload.encode()).hexdigest()[:12]
        title = (f'<p class="cfrlib-play-title"><strong>{html.escape(self.title)}</strong></p>'
                 if self.title else "")
        seats = "".join(
            f'<label><input type="radio" name="{group}" value="{seat}"{" checked" * (seat == 0)}>'
            f"player {seat}{' (acts first)' if seat == 0 else ''}</label>" for seat in (0, 1))
        return (f'<div class="cfrlib-play" tabindex="-1">{_STYLE}{title}'
                f'<div class="cfrlib-play-controls">'
                f'<span role="radiogroup" aria-label="your seat">Your seat: {seats}</span>'
                f'<label><input type="checkbox" class="cfrlib-play-hints"> show what a best '
                f"response would do</label>"
                f'<button type="button" class="cfrlib-play-deal">Deal <kbd>d</kbd></button>'
                f'<button type="button" class="cfrlib-play-reset">Reset tally</button></div>'
                f'<div class="cfrlib-play-board" aria-live="polite">'
                f'<p class="cfrlib-play-status">Pick a seat and press Deal.</p>'
                f'<p class="cfrlib-play-log" hidden></p>'
                f'<p class="cfrlib-play-pot" hidden></p>'
                f'<p class="cfrlib-play-hint" hidden></p>'
                f'<div class="cfrlib-play-actions" role="group" aria-label="your move"></div>'
                f"</div>"
                f'<table class="cfrlib-play-tally"><caption>Your results and each seat\'s value'
                f"</caption><thead><tr><th>seat</th><th>hands</th>"
                f"<th>total</th><th>mean &plusmn; s.e.</th><th>value</th></tr></thead>"
                f"<tbody></tbody></table>"
                f'<script type="application/json" class="cfrlib-play-data">{payload}</script>'
                f"<script>{_SCRIPT}</script></div>")

    def __repr__(self) -> str:
        value = self.tables["value"]
        return (f"PlayWidget({self.game.name}: {self.tree.num_infosets} infosets; value "
                f"{value[0]:+.6f} for player 0, {value[1]:+.6f} for player 1)")

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        return {"text/plain": repr(self), "text/html": self.static_html()}


def _node_stakes(game: Game, tree: Tree, stakes: Stakes, edge_labels: list[str]
                 ) -> NDArray[np.float64]:
    """``stakes(h)`` of every node, ``(num_nodes, 2)``: the histories rebuilt from the root by
    the edges' labels, in the tree's level order (node ``n``'s children follow each other)."""
    states = [game.initial_state()]
    for n, count in enumerate(tree.num_children.tolist()):
        first = len(states)
        states.extend(states[n].child(a) for a in edge_labels[first - 1:first - 1 + count])
    chips = np.array([tuple(stakes(h)) for h in states], dtype=float)
    if chips.shape != (tree.num_nodes, 2) or not np.isfinite(chips).all():
        raise CfrlibError(f"PlayWidget: stakes(h) must give two finite numbers, (c_0, c_1), "
                          f"for every history of {game.name}")
    return chips


def _infoset_words(tree: Tree, chips: NDArray[np.float64]) -> list[list[str]]:
    """The poker word of every infoset's actions (:func:`betting_word` of the stakes before and
    after), or a :class:`~cfrlib.errors.CfrlibError` where two histories of an infoset disagree."""
    words: list[list[str] | None] = [None] * tree.num_infosets
    first = np.concatenate(([1], 1 + np.cumsum(tree.num_children)[:-1]))
    for n in np.flatnonzero(tree.infoset >= 0).tolist():
        I, p = int(tree.infoset[n]), int(tree.player[n])
        try:
            here = [betting_word(chips[n], chips[c], p)
                    for c in range(first[n], first[n] + tree.num_children[n])]
        except CfrlibError as err:
            raise CfrlibError(f"PlayWidget: at player {p}'s infoset {tree.infoset_keys[I]!r}: "
                              f"{err}") from None
        if words[I] is None:
            words[I] = here
        elif words[I] != here:
            raise CfrlibError(f"PlayWidget: at player {p}'s infoset {tree.infoset_keys[I]!r} "
                              f"the stakes make the actions {words[I]} in one history and "
                              f"{here} in another")
    return [w or [] for w in words]


def _compact(values: NDArray[np.float64]) -> list[float | int]:
    """``values`` as a list, whole numbers as ints: the same numbers in JSON, ``1`` for ``1.0``."""
    return [int(v) if v.is_integer() else v for v in values.tolist()]


def _check_distributions(tree: Tree, probs: NDArray[np.float64], name: str) -> None:
    """Every infoset's probabilities are finite, non-negative and sum to 1, or a
    :class:`~cfrlib.errors.StrategyError` naming the first infoset that is not."""
    finite = np.asarray((np.isfinite(probs) & (probs >= 0)).all(axis=1))
    good = finite & sums_to_one(np.where(finite[:, None], probs, 0).sum(axis=1),
                                tree.infoset_num_actions)
    if not good.all():
        I = int(np.flatnonzero(~good)[0])
        row = dict(zip(tree.infoset_actions[I], probs[I].tolist()))
        raise StrategyError(f"PlayWidget: the strategy of {name} at player "
                            f"{tree.infoset_player[I]}'s infoset {tree.infoset_keys[I]!r} is "
                            f"{row}, not a probability distribution")


_STYLE = (
    "<style>.cfrlib-play{margin:.5em 0;max-width:100%;overflow-wrap:anywhere}"
    ".cfrlib-play-controls{display:flex;flex-wrap:wrap;gap:0 1.2em;align-items:center;"
    "margin:.3em 0}.cfrlib-play-controls label{display:inline-flex;gap:.4em;"
    "align-items:center;margin:0 .6em 0 0;min-height:44px;cursor:pointer}"
    ".cfrlib-play input{accent-color:#1f77b4;width:1.1em;height:1.1em;margin:0}"
    ".cfrlib-play button{font:inherit;color:inherit;background:transparent;"
    "border:1px solid currentColor;border-radius:.3em;padding:.25em 1em;cursor:pointer;"
    "min-height:44px;min-width:44px}.cfrlib-play button:disabled{opacity:.45;cursor:default}"
    ".cfrlib-play button:focus-visible,.cfrlib-play input:focus-visible{outline:2px solid "
    "currentColor;outline-offset:2px}.cfrlib-play kbd{font-size:.8em;opacity:.75}"
    "@media (hover:none),(pointer:coarse){.cfrlib-play kbd{display:none}}"
    ".cfrlib-play-board{border:1px solid rgba(128,128,128,.5);border-radius:.4em;"
    "padding:.3em .8em;margin:.4em 0}.cfrlib-play-board p{margin:.3em 0}"
    ".cfrlib-play-pot{font-variant-numeric:tabular-nums}"
    ".cfrlib-play-actions{display:flex;flex-wrap:wrap;gap:.5em;margin:.3em 0}"
    ".cfrlib-play-tally{border-collapse:collapse;font-variant-numeric:tabular-nums;"
    "font-size:.92em;margin:.3em 0;overflow-wrap:normal}.cfrlib-play-tally caption{"
    "text-align:left;caption-side:top;color:inherit;padding:0}"
    ".cfrlib-play-tally th,.cfrlib-play-tally td{padding:.15em .5em;"
    "border-bottom:1px solid rgba(128,128,128,.4);text-align:right;color:inherit}"
    ".cfrlib-play-tally th:first-child,.cfrlib-play-tally td:first-child{text-align:left;"
    "white-space:nowrap}"
    "</style>")

# The page's side: walks the exported tree. Node n's children are first[n] .. first[n] +
# node_children[n] - 1, first[n] = 1 + the children of the nodes before n (level order).
_SCRIPT = """(function(){
var root=document.currentScript.parentElement;
var data=JSON.parse(root.querySelector("script.cfrlib-play-data").textContent);
var CHANCE=-1,TERMINAL=-2,n=data.node_player.length,first=new Array(n),next=1,i;
for(i=0;i<n;i++){first[i]=next;next+=data.node_children[i];}
var deal=root.querySelector(".cfrlib-play-deal"),reset=root.querySelector(".cfrlib-play-reset"),
    hints=root.querySelector(".cfrlib-play-hints"),status=root.querySelector(".cfrlib-play-status"),
    hintLine=root.querySelector(".cfrlib-play-hint"),potLine=root.querySelector(".cfrlib-play-pot"),
    buttons=root.querySelector(".cfrlib-play-actions"),log=root.querySelector(".cfrlib-play-log"),
    tbody=root.querySelector(".cfrlib-play-tally tbody"),
    radios=root.querySelectorAll('input[type="radio"]');
var random,seat=0,node=-1,moves=[],result=null,tally;
function generator(a){return function(){  // mulberry32
  a=(a+0x6D2B79F5)|0;var t=Math.imul(a^(a>>>15),1|a);t=(t+Math.imul(t^(t>>>7),61|t))^t;
  return((t^(t>>>14))>>>0)/4294967296;};}
function draw(p){  // index a with p_0+..+p_(a-1) <= u < p_0+..+p_a; rounding: last positive
  var u=random(),c=0,last=0;
  for(var a=0;a<p.length;a++){if(p[a]>0){last=a;c+=p[a];if(u<c){return a;}}}
  return last;}
function fmt(x,d){return(x<0?"\\u2212":x>0?"+":"")+Math.abs(x).toFixed(d);}
function num(x){return x===Math.round(x)?String(x):x.toFixed(2);}
function payoff(z){return seat===0?data.node_payoff[z]:data.constant_sum-data.node_payoff[z];}
function stakes(m){return data.node_stakes?[data.node_stakes[2*m],data.node_stakes[2*m+1]]:null;}
function third(word){return word+(/(s|sh|ch|x|z)$/.test(word)?"es":"s");}  // the bot folds
function advance(){  // chance and the bot move until the reader acts or the hand ends
  for(;;){
    var p=data.node_player[node];
    if(p===TERMINAL){finish();return;}
    if(p===CHANCE){
      var k=draw(data.node_chance.slice(first[node],first[node]+data.node_children[node]));
      node=first[node]+k;moves.push({chance:true,child:node});continue;}
    var I=data.node_infoset[node];
    if(p===seat){return;}
    var a=draw(data.strategy[I]);
    moves.push({player:p,infoset:I,action:a});node=first[node]+a;}}
function finish(){
  result=payoff(node);[tally[seat],tally[2]].forEach(function(t){
    t.n+=1;t.sum+=result;t.squares+=result*result;});}
function mean(t){return t.n?t.sum/t.n:NaN;}
function stderr(t){
  if(t.n<2){return NaN;}var m=t.sum/t.n;
  return Math.sqrt(Math.max(t.squares-t.n*m*m,0)/(t.n-1)/t.n);}
function bestActions(values){
  var top=Math.max.apply(null,values),names=[];
  values.forEach(function(v,a){if(v>=top-1e-9*Math.max(1,Math.abs(top))){names.push(a);}});
  return names;}
function hintText(I){
  var values=data.hint[I],words=data.infoset_words[I];
  if(!values){return "The bot never lets a hand reach this spot.";}
  var best=bestActions(values).map(function(a){return words[a];});
  return "A best response to the bot would "+best.join(" or ")+(best.length>1?" (a tie)":"")+
    " here. Expected result of the hand, playing best from here on: "+
    values.map(function(v,a){return words[a]+" "+fmt(v,3);}).join(", ")+".";}
function story(){  // the hand in words; the bot's card and probabilities once it is over
  var over=result!==null,text=[],clauses=[],count=0;
  function close(){if(clauses.length){var s=clauses.join(", ");
    text.push(s.charAt(0).toUpperCase()+s.slice(1)+".");clauses=[];}}
  moves.forEach(function(m){
    if(m.chance){
      var to=data.deal[count],card=data.labels[data.node_edge[m.child]];count+=1;
      if(to===undefined){if(over){close();text.push("Chance "+count+": "+card+".");}return;}
      if(to===seat||to===null||over){close();
        text.push((to===null?"Board":to===seat?"You":"Bot")+": "+card+".");}
      return;}
    var word=data.infoset_words[m.infoset][m.action],clause;
    if(m.player===seat){
      clause="you "+word;
      if(hints.checked&&data.hint[m.infoset]){
        var best=bestActions(data.hint[m.infoset]);
        clause+=best.indexOf(m.action)>=0?" (a best response)":" (a best response would "+
          best.map(function(a){return data.infoset_words[m.infoset][a];}).join(" or ")+")";}}
    else{
      clause="the bot "+third(word);
      if(over){clause+=" ("+data.strategy[m.infoset].map(function(q,a){
        return data.infoset_words[m.infoset][a]+" "+q.toFixed(3);}).join(", ")+")";}}
    clauses.push(clause);});
  close();
  if(over){text.push(result>0?"You win "+num(result)+".":result<0?"You lose "+num(-result)+".":
                     "You break even.");}
  return text.join(" ");}
function potText(){
  var s=stakes(node);if(!s){return "";}
  var mine=s[seat],theirs=s[1-seat],owed=theirs-mine;
  return "Pot "+num(mine+theirs)+": you "+num(mine)+", the bot "+num(theirs)+"."+
    (result===null&&owed>0?" To call: "+num(owed)+".":"");}
var drawing=false;  // one redraw per batch of calls: a script playing many hands draws once
function render(){if(!drawing){drawing=true;queueMicrotask(paint);}}
function paint(){
  drawing=false;var playing=result===null&&node>=0;
  deal.disabled=playing;radios.forEach(function(r){r.disabled=playing;});
  buttons.textContent="";
  log.textContent=node<0?"":story();log.hidden=node<0;
  potLine.textContent=node<0?"":potText();potLine.hidden=!potLine.textContent;
  if(node<0){status.textContent="Pick a seat and press Deal.";hintLine.hidden=true;}
  else if(result!==null){
    status.textContent="Hand over. The whole hand, with the bot's card and, at each of its "+
      "moves, its probabilities:";
    hintLine.hidden=true;}
  else{
    var I=data.node_infoset[node];
    status.textContent="Your move, player "+seat+"."+
      (data.deal.length?"":" You know: "+data.infoset_key[I]+".");
    hintLine.textContent=hintText(I);hintLine.hidden=!hints.checked;
    data.infoset_words[I].forEach(function(word,a){
      var b=document.createElement("button");b.type="button";
      b.textContent=word+" ";var k=document.createElement("kbd");
      k.textContent=String(a+1);b.appendChild(k);b.dataset.action=a;
      b.addEventListener("click",function(){api.act(a);focusNext();});buttons.appendChild(b);});}
  tbody.textContent="";
  var all=tally[2],weight=all.n?[tally[0].n/all.n,tally[1].n/all.n]:[0.5,0.5];
  [0,1,2].forEach(function(s){
    var t=tally[s],tr=document.createElement("tr"),se=stderr(t),
        value=s<2?data.value[s]:weight[0]*data.value[0]+weight[1]*data.value[1];
    [s<2?String(s)+(s===seat?" (you)":""):"both",String(t.n),t.n?fmt(t.sum,0):"",
     t.n?fmt(mean(t),3)+(isNaN(se)?"":" \\u00b1 "+se.toFixed(3)):"",
     fmt(value,4)].forEach(function(text){
      var td=document.createElement("td");td.textContent=text;tr.appendChild(td);});
    tbody.appendChild(tr);});}
var api={
  reset:function(s){
    random=generator(s===undefined||s===null?Math.floor(Math.random()*4294967296):s>>>0);
    tally=[0,1,2].map(function(){return{n:0,sum:0,squares:0};});
    node=-1;moves=[];result=null;render();},
  setSeat:function(s){
    if(result===null&&node>=0){throw new Error("a hand is being played");}
    seat=s;radios.forEach(function(r){r.checked=+r.value===s;});render();},
  deal:function(){node=0;moves=[];result=null;advance();render();},
  act:function(a){
    if(result!==null||node<0||a<0||a>=data.node_children[node]){return;}
    moves.push({player:seat,infoset:data.node_infoset[node],action:a});
    node=first[node]+a;advance();render();},
  state:function(){
    var toAct=result===null&&node>=0,I=toAct?data.node_infoset[node]:-1;
    return {seat:seat,toAct:toAct,infoset:toAct?data.infoset_key[I]:null,
            actions:toAct?data.infoset_actions[I]:null,words:toAct?data.infoset_words[I]:null,
            stakes:node>=0?stakes(node):null,result:result,story:node>=0?story():"",
            moves:moves.map(function(m){return m.chance?{card:data.labels[data.node_edge[m.child]]}:
              {player:m.player,infoset:data.infoset_key[m.infoset],
               action:data.infoset_actions[m.infoset][m.action]};}),
            tally:tally.map(function(t){return{n:t.n,total:t.sum,mean:mean(t),stderr:stderr(t)};})};}
};
root.cfrlibPlay=api;
function focusNext(){  // keyboard play flows on, on the buttons the pending redraw makes
  queueMicrotask(function(){(buttons.querySelector("button")||deal).focus();});}
deal.addEventListener("click",function(){api.deal();focusNext();});
reset.addEventListener("click",function(){api.reset(data.seed);});
hints.addEventListener("change",render);
radios.forEach(function(r){r.addEventListener("change",function(){api.setSeat(+r.value);});});
root.addEventListener("keydown",function(e){
  if(e.altKey||e.ctrlKey||e.metaKey){return;}
  if(e.key==="d"&&!deal.disabled){e.preventDefault();deal.click();return;}
  var k=+e.key;
  if(k>=1&&buttons.children[k-1]){e.preventDefault();api.act(k-1);focusNext();}});
api.reset(data.seed);
})();"""
