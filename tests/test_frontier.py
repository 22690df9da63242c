"""The frontier presets (DCFR+, PDCFR+, SAPCFR+, APCFR+, RTCFR+) against a short
recursion written the way their papers and their authors' code state them, their convergence,
RTCFR+'s last iterate, save/load and bad parameters.

The reference below is independent of the engine: a recursive walk of the state API with
dictionaries, regrets discounted *before* ``r^t`` is added (the papers' order,
``R^t = R^{t-1} d_{t-1} + r^t``; the engine discounts after), averages kept as running discounted
sums ``S^t = S^{t-1} ((t-1)/t)^gamma + x^t`` (the authors' code; the engine weighs by ``t^gamma``),
and RTCFR+'s regularizer spread over histories (the engine adds it per sequence).
"""

import math

import numpy as np
import pytest

import cfrlib
from cfrbook import comparison
from cfrlib.errors import SolverError
from cfrlib.solvers import APCFRPlus, DCFRPlus, PDCFRPlus, RTCFRPlus, SAPCFRPlus, Solver, solver_class


def rm(regrets):
    """Regret matching on a dict: positive parts normalised, uniform if none."""
    positive = {a: max(r, 0.0) for a, r in regrets.items()}
    total = sum(positive.values())
    return {a: (p / total if total > 0 else 1.0 / len(positive)) for a, p in positive.items()}


def d(s, exponent, offset=1.0):
    """``s^e / (s^e + offset)``, 0 at ``s = 0`` (nothing to discount before the first iteration)."""
    return 0.0 if s == 0 else s ** exponent / (s ** exponent + offset)


class Rule:
    """One variant, in its paper's form: ``regret(R, r, t)`` (new ``R^t``), ``play(R, r, t)``
    (``sigma^{t+1}``) and the average's ``gamma_t``."""

    def __init__(self, regret, play, gamma):
        self.regret, self.play, self.gamma = regret, play, gamma


# DCFR+ as its authors' code runs it (dcfr_plus.py: + 1.5 in the discount), the preset's default
DCFR_PLUS_CODE = Rule(lambda R, r, t: max(R * d(t - 1, 1.5, 1.5) + r, 0.0), lambda R, r, t: rm(R), lambda t: 4.0)
# DCFR+ as the paper writes it (+ 1), DCFRPlus(offset=1.0)
DCFR_PLUS_PAPER = Rule(lambda R, r, t: max(R * d(t - 1, 1.5) + r, 0.0), lambda R, r, t: rm(R), lambda t: 4.0)

RULES = {
    DCFRPlus: DCFR_PLUS_CODE,
    PDCFRPlus: Rule(lambda R, r, t: max(R * d(t - 1, 2.3) + r, 0.0),
                    lambda R, r, t: rm({a: max(R[a] * d(t, 2.3) + r[a], 0.0) for a in R}), lambda t: 5.0),
    SAPCFRPlus: Rule(lambda R, r, t: max(R + r, 0.0),
                     lambda R, r, t: rm({a: R[a] + r[a] / 3.0 for a in R}), lambda t: 2.0),
}


class Reference:
    """Alternating updates, player 0 then player 1, by recursion over histories."""

    def __init__(self, game, rule, mu=0.0, eps=0.0, interval=0):
        self.game, self.rule, self.t = game, rule, 0
        self.mu, self.eps, self.interval = mu, eps, interval          # RTCFR+ only
        self.R, self.sigma, self.played, self.S, self.ref = {}, {}, {}, {}, {}
        self._collect(game.initial_state())

    def _collect(self, h):
        if h.is_terminal():
            return
        if not h.is_chance():
            acts = h.legal_actions()
            self.R.setdefault(h.infoset_key(), {a: 0.0 for a in acts})
            for table in (self.sigma, self.played, self.ref):
                table.setdefault(h.infoset_key(), {a: 1.0 / len(acts) for a in acts})
            self.S.setdefault(h.infoset_key(), {a: 0.0 for a in acts})
        for a in (h.legal_actions() if not h.is_chance() else [o for o, _ in h.chance_outcomes()]):
            self._collect(h.child(a))

    def _opp_reach(self, h, i, pi, out):
        """``pi_{-i}(I)``, summed over the histories of each of ``i``'s infosets."""
        if h.is_terminal():
            return
        if h.is_chance():
            for a, p in h.chance_outcomes():
                self._opp_reach(h.child(a), i, pi * p, out)
            return
        key = h.infoset_key()
        if h.current_player() == i:
            out[key] = out.get(key, 0.0) + pi
        for a in h.legal_actions():
            self._opp_reach(h.child(a), i, pi * (self.played[key][a] if h.current_player() != i else 1.0), out)

    def _walk(self, h, i, own, ref, opp):
        """``i``'s value of ``h``; adds ``pi_{-i}(h) (u(ha) - u(h))`` into ``self.r`` and own reach."""
        if h.is_terminal():
            return h.returns()[i]
        if h.is_chance():
            return sum(p * self._walk(h.child(a), i, own, ref, opp * p) for a, p in h.chance_outcomes())
        key, acts = h.infoset_key(), h.legal_actions()
        if h.current_player() != i:
            return sum(self.played[key][a] * self._walk(h.child(a), i, own, ref, opp * self.played[key][a])
                       for a in acts)
        q = {}
        for a in acts:
            q[a] = self._walk(h.child(a), i, own * self.played[key][a], ref * self.ref[key][a], opp)
            if self.mu:  # -mu (x[Ia] - x_ref[Ia]), shared out over I's histories by their reach
                q[a] -= self.mu * (own * self.played[key][a] - ref * self.ref[key][a]) / self.cf_reach[key]
        v = sum(self.sigma[key][a] * q[a] for a in acts)
        for a in acts:
            self.r[key][a] += opp * (q[a] - v)
        self.reach[key] = own
        return v

    def iterate(self):
        self.t += 1
        t = self.t
        if self.interval and t % self.interval == 0:
            self.ref = {k: dict(s) for k, s in self.played.items()}
        for i in (0, 1):
            self.r = {k: {a: 0.0 for a in s} for k, s in self.R.items()}
            self.reach, self.cf_reach = {}, {}
            if self.mu:
                self._opp_reach(self.game.initial_state(), i, 1.0, self.cf_reach)
            self._walk(self.game.initial_state(), i, 1.0, 1.0, 1.0)
            for key, own in self.reach.items():
                decay = ((t - 1) / t) ** self.rule.gamma(t)
                for a in self.S[key]:
                    self.S[key][a] = self.S[key][a] * decay + own * self.played[key][a]
                self._step(key, t)
                eps = self.eps / 2 ** (t // self.interval) if self.interval else 0.0
                p = self.sigma[key]
                mixed = {a: (1 - eps * len(p)) * p[a] + eps for a in p}
                total = sum(mixed.values())
                self.played[key] = {a: m / total for a, m in mixed.items()}

    def _step(self, key, t):
        """``R^t`` and ``sigma^{t+1}`` at infoset ``key`` from ``r^t``."""
        self.R[key] = {a: self.rule.regret(self.R[key][a], self.r[key][a], t) for a in self.R[key]}
        self.sigma[key] = self.rule.play(self.R[key], self.r[key], t)

    def average(self, key):
        total = sum(self.S[key].values())
        return {a: s / total for a, s in self.S[key].items()}


class AdaptiveReference(Reference):
    """APCFR+ in the indices of Meng et al. (AAAI 2026), sec. 4.1 and eq. (3): at iteration ``t``
    the strategy is ``[R^t + r^{t-1} / (1 + alpha^t)]^+`` normalised, then ``R^{t+1} = [R^t + r^t]^+``,
    with ``alpha^t = min(sqrt(sum_{tau<t} ||r^tau - r^{tau-1}||^2 / sum_{tau<t} ||R^{tau+1} - R^tau||^2), 5)``,
    ``R^1 = r^0 = 0``; quadratic average, alternating updates (sec. 5)."""

    def __init__(self, game, alpha_max=5.0):
        super().__init__(game, Rule(None, None, lambda t: 2.0))
        self.alpha_max = alpha_max
        self.error = {k: 0.0 for k in self.R}    # sum_tau ||r^tau - r^{tau-1}||^2
        self.moved = {k: 0.0 for k in self.R}    # sum_tau ||R^{tau+1} - R^tau||^2
        self.previous = {k: {a: 0.0 for a in s} for k, s in self.R.items()}  # r^{t-1}

    def _step(self, key, t):
        R, r, r_before = self.R[key], self.r[key], self.previous[key]
        R_next = {a: max(R[a] + r[a], 0.0) for a in R}                        # R^{t+1}
        self.error[key] += sum((r[a] - r_before[a]) ** 2 for a in R)
        self.moved[key] += sum((R_next[a] - R[a]) ** 2 for a in R)
        moved, error = self.moved[key], self.error[key]
        alpha = min(math.sqrt(error / moved), self.alpha_max) if moved > 0 else self.alpha_max  # alpha^{t+1}
        self.R[key], self.previous[key] = R_next, dict(r)
        self.sigma[key] = rm({a: R_next[a] + r[a] / (1.0 + alpha) for a in R})


RTCFR_RULE = Rule(lambda R, r, t: max(R + r, 0.0), lambda R, r, t: rm(R), lambda t: 0.0)
# RTCFR+ with a perturbation and reference interval large enough to show in 30 iterations
RT = dict(mu=0.05, eps=1e-3, interval=7)


def reference_for(klass, game):
    if klass is APCFRPlus:
        return AdaptiveReference(game), APCFRPlus(game)
    if klass is RTCFRPlus:
        return Reference(game, RTCFR_RULE, **RT), RTCFRPlus(game, mu=RT["mu"], perturbation=RT["eps"],
                                                            interval=RT["interval"])
    return Reference(game, RULES[klass]), klass(game)


def agree(solver, reference, tol):
    current, average = solver.current_strategy(), solver.average_strategy()
    for key in reference.S:
        for a, p in reference.played[key].items():
            assert current[key][a] == pytest.approx(p, abs=tol), (solver.name, reference.t, key, a)
        for a, p in reference.average(key).items():
            assert average[key][a] == pytest.approx(p, abs=tol), (solver.name, reference.t, key, a)


@pytest.mark.parametrize("klass", [DCFRPlus, PDCFRPlus, SAPCFRPlus, APCFRPlus, RTCFRPlus])
def test_preset_agrees_with_the_papers_recursion_on_kuhn_every_iteration(kuhn, klass):
    reference, solver = reference_for(klass, kuhn)
    for _ in range(30):
        reference.iterate()
        solver.iterate(1)
        agree(solver, reference, 1e-12)


@pytest.mark.parametrize("game", ["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def test_dcfr_plus_with_the_papers_offset_agrees_with_the_papers_recursion(request, game):
    game = request.getfixturevalue(game)
    reference, solver = Reference(game, DCFR_PLUS_PAPER), DCFRPlus(game, offset=1.0)
    for _ in range(30 if game.name == "kuhn" else 3):
        reference.iterate()
        solver.iterate(1)
        agree(solver, reference, 1e-12)


def test_the_dcfr_plus_offset_matters_early_and_fades_on_leduc(leduc):
    """Issue 35, item 19: the authors' ``+ 1.5`` (the default) and the paper's ``+ 1`` part by
    about 40% after 100 iterations on Leduc, a quarter after 300, and a few percent after 1000
    (chapter 13's exercise prints the values)."""
    code, paper = DCFRPlus(leduc), DCFRPlus(leduc, offset=1.0)
    gaps = []
    for n in (100, 300, 1000):
        code.iterate(n - code.iterations)
        paper.iterate(n - paper.iterations)
        gaps.append(paper.exploitability() / code.exploitability() - 1.0)
    assert gaps[0] > 0.3 and 0.15 < gaps[1] < gaps[0] and abs(gaps[2]) < 0.05


@pytest.mark.slow  # the Kuhn test above checks every preset at every iteration in make check
@pytest.mark.parametrize("klass", [PDCFRPlus, APCFRPlus, RTCFRPlus])
def test_preset_agrees_with_the_papers_recursion_on_leduc(leduc, klass):
    reference, solver = reference_for(klass, leduc)
    for _ in range(3):
        reference.iterate()
        solver.iterate(1)
        agree(solver, reference, 1e-12)


def test_dcfr_plus_and_pdcfr_plus_are_members_of_the_discounted_family(kuhn):
    """The presets are the engine's ``(alpha, -inf, gamma)`` settings, nothing more."""
    for preset, args in ((DCFRPlus(kuhn, offset=1.0), (1.5, -math.inf, 4.0)),
                         (PDCFRPlus(kuhn), (2.3, -math.inf, 5.0))):
        member = cfrlib.FullWidthCFR(kuhn, *args, predictive=preset.predictive)
        preset.iterate(50)
        member.iterate(50)
        assert np.array_equal(preset.average_strategy().probs, member.average_strategy().probs)


# ---------------------------------------------------------------------------- convergence
# Bounds: the measured exploitability after 1000 iterations on Kuhn (comment) with a margin.
@pytest.mark.parametrize("klass, bound", [(DCFRPlus, 2e-4),     # 1.15e-4
                                          (PDCFRPlus, 1e-10),   # 1.1e-13
                                          (SAPCFRPlus, 1e-6),   # 1.1e-8
                                          (APCFRPlus, 1e-6)])   # 1.1e-8
def test_average_converges_on_kuhn(kuhn, klass, bound):
    solver = klass(kuhn).iterate(1000)
    assert solver.exploitability() < bound
    assert abs(cfrlib.expected_value(kuhn, solver.average_strategy()) + 1 / 18) < 1e-3


@pytest.mark.slow
def test_predictive_variants_trail_cfr_plus_on_leduc(leduc):
    """On Leduc the prediction does not pay within 1000 iterations: PDCFR+ 9.0e-4 and PCFR+
    7.1e-4 against CFR+'s 2.4e-4 (measured here; issue 24 quotes the PCFR+ and CFR+ figures)."""
    pdcfr, pcfr, plus = (klass(leduc).iterate(1000) for klass in (PDCFRPlus, cfrlib.PredictiveCFRPlus,
                                                                 cfrlib.CFRPlus))
    assert pdcfr.exploitability() == pytest.approx(9.0e-4, rel=0.05)
    assert pcfr.exploitability() == pytest.approx(7.1e-4, rel=0.05)
    assert plus.exploitability() < pcfr.exploitability() < pdcfr.exploitability()


@pytest.mark.slow
def test_asymmetric_steps_recover_leduc(leduc):
    """Meng et al. (AAAI 2026, sec. 5): on Leduc both asymmetric variants beat PCFR+, and the
    adaptive APCFR+ beats the fixed SAPCFR+. After 1000 iterations here: APCFR+ 1.78e-4, SAPCFR+
    1.95e-4, CFR+ 2.4e-4, PCFR+ 7.1e-4; APCFR+'s learned alpha_I lies in [0, 5] and moves."""
    ap, sap, pcfr = (klass(leduc).iterate(1000) for klass in (APCFRPlus, SAPCFRPlus, cfrlib.PredictiveCFRPlus))
    assert ap.exploitability() == pytest.approx(1.78e-4, rel=0.05)
    assert ap.exploitability() < sap.exploitability() < pcfr.exploitability() / 3
    alpha = np.concatenate([ap.asymmetry(0), ap.asymmetry(1)])
    assert alpha.min() >= 0.0 and alpha.max() <= 5.0 and np.ptp(alpha) > 1.0


@pytest.mark.slow
def test_rtcfr_plus_current_strategy_converges_where_cfr_plus_current_does_not(kuhn):
    rt, plus = RTCFRPlus(kuhn), cfrlib.CFRPlus(kuhn)
    rt_current, plus_current = [], []
    for n in (500, 1000, 2000, 4000):
        rt.iterate(n - rt.iterations)
        plus.iterate(n - plus.iterations)
        rt_current.append(cfrlib.exploitability(kuhn, rt.current_strategy()))
        plus_current.append(cfrlib.exploitability(kuhn, plus.current_strategy()))
    assert rt_current == sorted(rt_current, reverse=True)
    assert rt_current[-1] < rt_current[0] / 5
    assert min(plus_current) > 5 * rt_current[-1]


def test_rtcfr_plus_current_strategy_on_leduc_beats_its_own_average(leduc):
    rt = RTCFRPlus(leduc).iterate(1000)
    current = cfrlib.exploitability(leduc, rt.current_strategy())
    assert current < 2e-3 < rt.exploitability()


def test_published_ddcfr_baselines_are_exploitability_in_chips(kuhn):
    """Xu et al. (ICLR 2024), github.com/rpSebastian/DDCFR results/*/KuhnPoker/data.csv after
    1000 iterations: CFR 9.376e-4, CFR+ 8.737e-5 (OpenSpiel's exploitability, NashConv / 2)."""
    assert cfrlib.CFR(kuhn).iterate(1000).exploitability() == pytest.approx(9.376166e-4, rel=1e-5)
    assert cfrlib.CFRPlus(kuhn).iterate(1000).exploitability() == pytest.approx(8.736532e-5, rel=1e-5)


@pytest.mark.slow
def test_published_ddcfr_baselines_on_liars_dice_are_bluff_1x1():
    """DDCFR's LiarsDice3 (OpenSpiel ``liars_dice``, one 3-sided die each) is the book's Bluff 1x1
    with 3 sides: the same 2 x 1147 nodes touched an iteration, and after 1000 iterations its
    results/CFRPlus/LiarsDice3/data.csv 4.842476e-6 and results/DCFR/LiarsDice3/data.csv 3.952371e-8
    (github.com/rpSebastian/DDCFR @ 0e4de9b)."""
    bluff = cfrlib.games.bluff(sides=3)
    plus, dcfr = cfrlib.CFRPlus(bluff).iterate(1000), cfrlib.DCFR(bluff).iterate(1000)
    assert plus.nodes_touched == dcfr.nodes_touched == 2294000
    assert plus.exploitability() == pytest.approx(4.842476e-6, rel=1e-6)
    assert dcfr.exploitability() == pytest.approx(3.952371e-8, rel=1e-6)


# ----------------------------------------------------------------------------- plumbing
@pytest.mark.parametrize("name", ["dcfr+", "pdcfr+", "sapcfr+", "apcfr+", "rtcfr+", "exrm+", "sprm+", "mmd"])
def test_saved_and_loaded_run_goes_on_as_if_never_stopped(kuhn, tmp_path, name):
    klass = solver_class(name)
    whole = klass(kuhn).iterate(120)
    half = klass(kuhn).iterate(60)
    half.save(tmp_path / "run.npz")
    resumed = Solver.load(tmp_path / "run.npz", kuhn).iterate(60)
    assert type(resumed) is klass
    assert np.array_equal(resumed.current_strategy().probs, whole.current_strategy().probs)
    assert np.array_equal(resumed.average_strategy().probs, whole.average_strategy().probs)


def test_frontier_variants_are_in_the_comparison_study(kuhn):
    for name in comparison.FRONTIER_VARIANTS:
        solver = comparison.make_solver(name, kuhn)
        assert solver.name == name


@pytest.mark.parametrize("make, word", [
    (lambda g: DCFRPlus(g, alpha=-1.0), "alpha"),
    (lambda g: PDCFRPlus(g, gamma=math.nan), "gamma"),
    (lambda g: SAPCFRPlus(g, prediction_weight=1.5), "prediction_weight"),
    (lambda g: SAPCFRPlus(g, prediction_weight=0.0), "prediction_weight"),
    (lambda g: APCFRPlus(g, alpha_max=-1.0), "alpha_max"),
    (lambda g: APCFRPlus(g, alpha_max=math.inf), "alpha_max"),
    (lambda g: APCFRPlus(g, averaging="cubic"), "averaging"),
    (lambda g: DCFRPlus(g, offset=0.0), "offset"),
    (lambda g: DCFRPlus(g, offset=-1.0), "offset"),
    (lambda g: RTCFRPlus(g, mu=0.0), "mu"),
    (lambda g: RTCFRPlus(g, perturbation=0.6), "perturbation"),
    (lambda g: RTCFRPlus(g, interval=0), "interval"),
])
def test_bad_parameters_name_the_parameter(kuhn, make, word):
    with pytest.raises(SolverError, match=word):
        make(kuhn)


# --------------------------------------------------------------- recorded data (chapter 13)
@pytest.mark.parametrize("key", ["kuhn", "leduc"])
def test_recorded_curves_agree_with_a_short_rerun(key):
    """``benchmarks/frontier_curves.py``'s data: a 50-iteration re-run gives the recorded prefix
    (average and current exploitability at the same schedule points; seconds are not compared)."""
    from cfrbook import datasets
    from cfrlib import games
    data = datasets.load_json("frontier_curves")
    game = games.kuhn() if key == "kuhn" else games.leduc()
    assert data["iterations"] == 1000 and list(data["games"][key]) == data["variants"]
    for name, recorded in data["games"][key].items():
        solver = comparison.make_solver(name, game)
        points = comparison.schedule(50)
        assert recorded["iteration"][:len(points)] == points
        for k, target in enumerate(points):
            solver.iterate(target - solver.iterations)
            assert solver.exploitability() == pytest.approx(recorded["average"][k], rel=1e-6, abs=1e-15)
            current = cfrlib.exploitability(game, solver.current_strategy())
            assert current == pytest.approx(recorded["current"][k], rel=1e-6, abs=1e-15), (name, target)


def test_chapter12_captions_state_what_the_recorded_runs_show():
    """Issue 35, item 21: each chapter 13 caption's claim about the recorded runs, checked on
    ``frontier_curves.json`` (the average strategy, as the figures draw it, after 1000 iterations;
    the current-strategy figure's claims on RTCFR+'s and CFR+'s current strategies)."""
    from figure_captions import FIGURES

    from cfrbook import datasets

    data = datasets.load_json("frontier_curves")
    names, runs = data["variants"], data["games"]
    predictive = {"PCFR+", "PDCFR+", "SAPCFR+", "APCFR+"}

    def final(game, which="average"):
        return {name: runs[game][name][which][-1] for name in names}

    def caption(cell):
        return FIGURES["13_frontier.ipynb", cell]

    figures = {"kuhn": "5b310bca", "leduc": "6810813e", "bluff11_3": "efd59643",
               "bluff11_4": "d2078725", "bluff11": "c8f2c166"}
    assert len(names) == 8 and predictive <= set(names)
    for cell in figures.values():
        assert "The eight variants" in caption(cell)["caption"]
        assert "eight variants" in caption(cell)["alt"]
    kuhn, leduc, bluff3, bluff4, bluff6 = (final(g) for g in figures)
    others = set(names) - predictive
    assert "predictive variants end more than a thousand times below" in caption("5b310bca")["caption"]
    assert 1000 * max(kuhn[n] for n in predictive) < min(kuhn[n] for n in others)
    assert "DCFR and DCFR+ end lowest, and PCFR+ and PDCFR+ end behind CFR+" in caption("6810813e")["caption"]
    assert set(sorted(leduc, key=leduc.get)[:2]) == {"DCFR alt.", "DCFR+"}
    assert min(leduc["PCFR+"], leduc["PDCFR+"]) > leduc["CFR+"]
    assert "PDCFR+ and DCFR+ end lowest, below $10^{-11}$" in caption("efd59643")["caption"]
    ranked = sorted(bluff3, key=bluff3.get)
    assert set(ranked[:2]) == {"PDCFR+", "DCFR+"} and bluff3[ranked[1]] < 1e-11
    assert set(ranked[-2:]) == {"CFR+", "RTCFR+"}
    assert "predictive variants end lowest, PDCFR+ more than a" in caption("d2078725")["caption"]
    ranked = sorted(bluff4, key=bluff4.get)
    assert set(ranked[:4]) == predictive and ranked[0] == "PDCFR+"
    assert 1000 * bluff4["PDCFR+"] < bluff4[ranked[1]]
    assert "within a factor of ten of each other, DCFR lowest" in caption("c8f2c166")["caption"]
    rest = [bluff6[n] for n in names if n != "RTCFR+"]
    assert max(rest) < 10 * min(rest) and min(bluff6, key=bluff6.get) == "DCFR alt."
    current = caption("b9d3e67c")["caption"]
    assert ("below CFR+'s on every game but Bluff with three sides, where both reach rounding error, "
            "and below its own average on every game but Kuhn") in current
    for game in figures:
        rt, plus = runs[game]["RTCFR+"], runs[game]["CFR+"]
        if game == "bluff11_3":
            assert max(rt["current"][-1], plus["current"][-1]) < 1e-12
        else:
            assert rt["current"][-1] < plus["current"][-1]
        assert (rt["current"][-1] < rt["average"][-1]) == (game != "kuhn")
