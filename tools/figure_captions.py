"""Captions and alt texts of the book's static figures, written into the notebooks by
tools/apply-figure-captions.

One entry per code cell that draws a figure (a matplotlib image in its saved outputs), keyed by
(notebook file name in chapters/, cell id). Each gives:

- ``name``: the figure's label, ``fig-chNN-short-name`` (``{numref}`fig-ch04-current-vs-average```
  refers to it; keep it once a chapter cites it);
- ``caption``: MyST, one or two sentences: what is plotted and the point it makes. No computed
  numbers that could drift with a re-run (the prose quotes those with ``{eval}``); parameters
  fixed in the code (1000 iterations, five seeds) are fine;
- ``alt``: plain text (no markup, no TeX) for a reader who cannot see the image: the axes, what
  the curves, bars or points are, the visible trend; under 250 characters.

Figures with controls (cfrlib.interactive.Explorer) carry their own ``alt=`` and are not listed.
A new figure cell needs an entry here (tests/test_figures_accessible.py fails without one), then
`.venv/bin/python tools/apply-figure-captions`.
"""

from __future__ import annotations

FIGURES: dict[tuple[str, str], dict[str, str]] = {
    # ---------------------------------------------------------------- chapter 1
    ("01_regret_matching.ipynb", "8216ec25"): {
        "name": "fig-ch01-regret-bound",
        "caption": (
            "Regret matching's guarantee, checked on rock-paper-scissors. Left: player 0's largest "
            "cumulative regret, in self-play and against the biased opponent, stays under the bound "
            r"$\Delta\sqrt{|A|\,t}$ (dashed); right: each inequality of the potential argument "
            "holds, every curve lying under the next."),
        "alt": (
            "Two log-log panels against rounds. Left: largest cumulative regret, in self-play and "
            "against a biased opponent, well below a dashed square-root bound. Right: the potential "
            "under the summed squared regrets, under a dashed straight line."),
    },
    ("01_regret_matching.ipynb", "cell-022"): {
        "name": "fig-ch01-rm-vs-rmplus",
        "caption": (
            "Exploitability of the average strategy in rock-paper-scissors self-play, on log-log "
            "axes. Regret matching and regret matching+ both stay far below the worst-case bound "
            r"$\Delta\sqrt{|A|}/\sqrt{T}$ (dashed), and RM+ does better still."),
        "alt": (
            "Log-log plot of exploitability against rounds: regret matching and regret matching+ "
            "both fall with small oscillations, RM+ consistently lower; a dashed straight bound "
            "line lies above both."),
    },
    ("01_regret_matching.ipynb", "86dd064e"): {
        "name": "fig-ch01-shapley",
        "caption": (
            "Regret matching in self-play on Shapley's game, which is not zero-sum. The CCE gap of "
            "the empirical joint play falls as the regret bound promises, while the Nash gap of the "
            "average strategies and their distance to the uniform equilibrium stop falling: "
            "no regret does not mean a Nash equilibrium here."),
        "alt": (
            "Log-log plot against rounds: the CCE gap of the joint play falls along a straight "
            "line, while the Nash gap and the distance of the averages to the equilibrium stay "
            "flat, oscillating."),
    },
    ("01_regret_matching.ipynb", "faf13f54"): {
        "name": "fig-ch01-four-minimizers",
        "caption": (
            "Four regret minimizers run through one interface in rock-paper-scissors self-play: "
            "exploitability of the average profile after every round. All four carry an "
            r"$O(1/\sqrt{T})$ guarantee, yet in self-play they separate, predictive RM+ far ahead."),
        "alt": (
            "Log-log plot of exploitability against rounds for regret matching, RM+, Hedge and "
            "predictive RM+ in self-play; all fall, predictive RM+ fastest and lowest, regret "
            "matching slowest."),
    },
    # ---------------------------------------------------------------- chapter 2 (new): CFR on Kuhn poker
    ("02_cfr_on_kuhn_poker.ipynb", "ch2-infoset-figure"): {
        "name": "fig-ch02-infoset",
        "caption": (
            "The betting of Kuhn poker in two of the six deals, with player 0's payoff at each end. "
            "Player 1, holding the queen after a pass, cannot tell the two deals apart: the two "
            "histories form one information set, `Qp`, where player 1 must act the same way."),
        "alt": (
            "Two small betting trees, for player 0 holding the jack and the king, player 1 the "
            "queen; a dashed arc joins player 1's two nodes after a pass, labelled as one "
            "information set Qp."),
    },
    ("02_cfr_on_kuhn_poker.ipynb", "ch2-curve"): {
        "name": "fig-ch02-exploitability",
        "caption": (
            "Exploitability of the average strategy of the chapter's CFR on Kuhn poker against "
            r"iterations, on log-log axes, with a $1/\sqrt{T}$ line (dashed) for the slope: the "
            "curve falls faster than the line."),
        "alt": (
            "Log-log plot of exploitability against iterations from 1 to 5000: the CFR curve falls "
            "steeply from about 0.5, below a dashed reference line of slope minus one half."),
    },
    # ---------------------------------------------------------------- chapter 3
    ("03_games_and_exploitability.ipynb", "cell-007"): {
        "name": "fig-ch03-kuhn-tree",
        "caption": (
            "The whole game tree of Kuhn poker, by depth. Diamonds are chance's deals, circles "
            "player 0's decisions, squares player 1's and dots the terminal histories with their "
            "payoff $u_0(z)$; edges carry the card dealt or `p` (pass) and `b` (bet). The histories "
            "of one information set share a colour and their key (and, where the tree stands "
            "upright, a dashed arc); on a phone the tree lies on its side, the root at the left."),
        "alt": (
            "Tree diagram: chance deals J, Q or K to player 0, then one of the two other cards to "
            "player 1; then the players' pass and bet decisions, down to payoffs from -2 to +2. "
            "Histories of one infoset share a colour and a key."),
    },
    # ---------------------------------------------------------------- chapter 4
    ("04_vanilla_cfr.ipynb", "cell-018"): {
        "name": "fig-ch04-cfr-convergence",
        "caption": (
            "CFR's exploitability on Kuhn poker and Leduc hold'em, on log-log axes, with a "
            r"reference line of slope $-1/2$ (dashed). Both curves fall faster than the "
            r"worst-case rate $1/\sqrt{T}$."),
        "alt": (
            "Log-log plot of exploitability against iterations: Leduc's curve starts high and "
            "falls along a straight line; Kuhn's starts lower and falls with growing "
            "oscillations; both are steeper than a dashed slope -1/2 line."),
    },
    ("04_vanilla_cfr.ipynb", "cell-020"): {
        "name": "fig-ch04-alternating",
        "caption": (
            "Alternating against simultaneous updates for CFR on Leduc. Per iteration (left) "
            "alternating updates are well ahead; per node touched (right) simultaneous updates "
            "lead at first and alternating updates pull ahead later."),
        "alt": (
            "Two log-log panels of exploitability. Left, against iterations: the alternating curve "
            "lies below the simultaneous one throughout. Right, against nodes touched: the curves "
            "cross and alternating ends lower."),
    },
    ("04_vanilla_cfr.ipynb", "92e6152c"): {
        "name": "fig-ch04-regret-pruning",
        "caption": (
            "Exploitability against nodes touched for CFR without pruning, with the two-phase cut "
            "and with regret-based pruning, on Leduc (computed on this page) and on Bluff 1x1 "
            "(recorded). Regret-based pruning needs the least work, and its gain grows with the "
            "game."),
        "alt": (
            "Two log-log panels of exploitability against nodes touched. On Leduc the three curves "
            "lie close, regret-based pruning slightly left; on Bluff they separate: regret-based "
            "far left, the two-phase cut next, unpruned right."),
    },
    ("04_vanilla_cfr.ipynb", "cell-024"): {
        "name": "fig-ch04-current-vs-average",
        "caption": (
            r"CFR on Leduc: the current strategy $\sigma^T$ stops improving after a few dozen "
            r"iterations and oscillates, while the average strategy $\bar\sigma^T$ keeps getting "
            "less exploitable. Only the average carries the convergence guarantee."),
        "alt": (
            "Log-log plot of exploitability against iterations: the current strategy's falls "
            "briefly, then oscillates around a flat level; the average strategy's falls steadily, "
            "ending far below it."),
    },
    ("04_vanilla_cfr.ipynb", "cell-030"): {
        "name": "fig-ch04-three-games",
        "caption": (
            "Solution of the exercise: CFR's exploitability on Kuhn poker, Leduc hold'em and Bluff "
            "with one four-sided die each. Kuhn converges fastest per iteration; Bluff, slightly "
            "larger than Leduc, still ends lower."),
        "alt": (
            "Log-log plot of exploitability against iterations for three games, each falling "
            "roughly along a straight line: Leduc highest, Bluff with four sides in the middle, "
            "Kuhn lowest with growing oscillations."),
    },
    ("04_vanilla_cfr.ipynb", "34c764e6"): {
        "name": "fig-ch04-hedge-cfr",
        "caption": (
            "CFR with Hedge at every infoset instead of regret matching, on Kuhn poker: at the "
            "learning rate that is safe for the payoff range, and at eight times that rate. Any "
            "regret minimizer makes CFR converge; Hedge's rate must be tuned, regret matching's "
            "needs none."),
        "alt": (
            "Log-log plot of exploitability against iterations on Kuhn poker: CFR falls fastest; "
            "Hedge-CFR at eight times the safe rate follows above it; Hedge-CFR at the safe rate "
            "stays far above both."),
    },
    # ---------------------------------------------------------------- chapter 5 (why CFR works)
    ("05_why_cfr_works.ipynb", "74840b0c"): {
        "name": "fig-ch05-regret-decomposition",
        "caption": (
            "The regret decomposition checked on CFR in Kuhn poker: player 0's overall regret "
            r"$R_0^T$ (dashed) never exceeds the sum of its positive counterfactual regrets "
            r"$\sum_I R^{T,+}(I)$, and often equals it. Both grow no faster than $\sqrt{T}$, so "
            "the average regret goes to zero."),
        "alt": (
            "Line plot of player 0's regret against iterations 1 to 200: the sum of positive "
            "infoset regrets (solid) and the overall regret (dashed) rise together with "
            "oscillations, the dashed curve never above the solid one."),
    },
    ("05_why_cfr_works.ipynb", "4527c4e6"): {
        "name": "fig-ch05-regret-trace",
        "caption": (
            "The steps of CFR's convergence proof measured on Kuhn poker. Left: each player's "
            r"overall regret $R_i^T$ lies at or under the sum of its infoset regrets, far below "
            "Zinkevich et al.'s bound (dashed grey); right: with simultaneous updates NashConv "
            r"equals $(R_0^T + R_1^T)/T$, with alternating updates it lies below it."),
        "alt": (
            "Two log-log panels against iterations. Left: both players' overall regrets and "
            "their infoset sums grow slowly, close together, far under a dashed bound line. Right: "
            "NashConv and average regret fall; alternating NashConv is lowest."),
    },
    ("05_why_cfr_works.ipynb", "a1c84eb6"): {
        "name": "fig-ch05-value-error",
        "caption": (
            "CFR+ on Leduc measured against the LP's exact value $v^*$. The error of the average "
            r"strategy's value, $|u_0(\bar\sigma^T) - v^*|$, stays under its exploitability, which "
            "bounds it, and falls faster; only the exploitability certifies the strategy."),
        "alt": (
            "Log-log plot against iterations: exploitability falls steadily; the error of the "
            "average strategy's value first rises, then falls faster and irregularly, staying "
            "below the exploitability throughout."),
    },
    # ---------------------------------------------------------------- chapter 6
    ("06_chance_sampling.ipynb", "c017"): {
        "name": "fig-ch06-leduc-chance-sampling",
        "caption": (
            "Vanilla CFR and chance-sampled CFR on Leduc, against iterations (left) and nodes "
            "touched (right). Per iteration CFR wins easily; per node touched chance sampling "
            "leads at first, and CFR takes the lead for good later."),
        "alt": (
            "Two log-log panels of exploitability. Left, against iterations: CFR falls long before "
            "chance sampling, which runs many more iterations. Right, against nodes touched: chance "
            "sampling starts lower, the curves cross and CFR ends lower."),
    },
    ("06_chance_sampling.ipynb", "c027"): {
        "name": "fig-ch06-bluff-chance-sampling",
        "caption": (
            "CFR (with pruning) and chance sampling on Bluff with one six-sided die each, from the "
            "recorded curves, against iterations, nodes touched and seconds. Per iteration CFR "
            "wins; per node touched and per second chance sampling leads only early, while CFR's "
            "first iterations are still running."),
        "alt": (
            "Three log-log panels of exploitability for CFR and chance sampling: against "
            "iterations CFR falls far faster; against nodes touched chance sampling is lower early "
            "and CFR after they cross; against seconds the same, CFR ending far lower."),
    },
    ("06_chance_sampling.ipynb", "56254830"): {
        "name": "fig-ch06-public-chance-sampling",
        "caption": (
            "Public chance sampling against chance sampling on Leduc, medians of five recorded "
            "seeds, against nodes touched (left) and seconds (right). Per node public chance "
            "sampling stays slightly behind, and per second its numpy passes are several times "
            "slower than the compiled chance-sampled walk."),
        "alt": (
            "Two log-log panels with markers. Against nodes touched, public chance sampling lies "
            "just above chance sampling, the two nearly meeting at the end. Against seconds, the "
            "public chance sampling curve lies far to the right."),
    },
    ("06_chance_sampling.ipynb", "c035"): {
        "name": "fig-ch06-bluff4-exercise",
        "caption": (
            "Solution of the exercise: CFR with pruning and chance sampling on Bluff with one "
            "four-sided die each, against nodes touched. Chance sampling keeps level only "
            "briefly; then CFR leads and the gap widens."),
        "alt": (
            "Log-log plot of exploitability against nodes touched: chance sampling starts lower, "
            "the curves cross early, then CFR falls steadily while chance sampling flattens, "
            "ending several times higher."),
    },
    # ---------------------------------------------------------------- chapter 7
    ("07_monte_carlo_cfr.ipynb", "c009"): {
        "name": "fig-ch07-sampled-regrets",
        "caption": (
            r"One traversal's sampled regret increments $\tilde r(I, a)$ at player 0's infosets "
            "in Leduc, for chance, external and outcome sampling: the mean of 3,000 traversals "
            "with two standard errors each way, against the exact regret (black). Every estimator "
            "is centred on the exact value; outcome sampling's bars are the widest."),
        "alt": (
            "Error-bar chart: for each of player 0's infoset-action pairs, three coloured means "
            "with bars of two standard errors around a black mark for the exact regret. The bars "
            "cover the marks; outcome sampling's are widest."),
    },
    ("07_monte_carlo_cfr.ipynb", "c011"): {
        "name": "fig-ch07-variance-epsilon",
        "caption": (
            "Variance of one outcome-sampling traversal's estimate against the exploration "
            r"$\epsilon$, with chance and external sampling as horizontal lines; on the right, "
            "multiplied by the nodes a traversal touches. Outcome sampling's variance is lowest "
            "at intermediate $\\epsilon$ and stays above the others', even for equal work."),
        "alt": (
            "Two panels against exploration epsilon, log vertical axes: outcome sampling's "
            "variance is highest at the smallest epsilon and lowest in the middle; horizontal "
            "lines for chance and external sampling lie well below it."),
    },
    ("07_monte_carlo_cfr.ipynb", "c013"): {
        "name": "fig-ch07-exploration",
        "caption": (
            r"Outcome sampling on Leduc for 40,000 iterations at several values of $\epsilon$ "
            "(cfrlib's default, 0.6, thick), against nodes touched, with vanilla CFR in blue. The "
            "runs end close together, all far behind CFR at equal work."),
        "alt": (
            "Log-log plot of exploitability against nodes touched: four outcome-sampling curves "
            "for different epsilon fall slowly and end close together; the blue CFR curve falls "
            "much faster and ends far lower."),
    },
    ("07_monte_carlo_cfr.ipynb", "c017"): {
        "name": "fig-ch07-million-nodes",
        "caption": (
            "CFR, chance sampling, external sampling and outcome sampling on Leduc, each given "
            "about a million nodes of work. External sampling leads most of the way and CFR "
            "catches up at the end; outcome sampling is the slowest per node."),
        "alt": (
            "Log-log plot of exploitability against nodes touched for four algorithms: external "
            "sampling lowest most of the way, CFR falling to meet it at the end, chance sampling "
            "between, outcome sampling highest."),
    },
    ("07_monte_carlo_cfr.ipynb", "c019"): {
        "name": "fig-ch07-recorded-curves",
        "caption": (
            "The recorded long runs of CFR and the three samplers on Leduc (top) and on Bluff with "
            "one six-sided die each (bottom), against nodes touched (left) and seconds (right). Per "
            "node external sampling beats chance sampling on both games and outcome sampling is "
            "the slowest; per second CFR leads on Leduc throughout and on Bluff once its first "
            "iterations are done."),
        "alt": (
            "Four log-log panels of exploitability for CFR and three samplers. Against nodes the "
            "samplers start ahead, then CFR falls steeply; outcome sampling stays highest. Against "
            "seconds CFR ends lowest: on Leduc it falls first, on Bluff after the samplers."),
    },
    ("07_monte_carlo_cfr.ipynb", "c026"): {
        "name": "fig-ch07-bluff-state-api",
        "caption": (
            "External sampling on Bluff with two four-sided dice each, a game too large for exact "
            "evaluation. Left: the infosets met so far, a fraction of the game's; right: the "
            "strategy's winnings against uniform play, with two standard errors, rise long before "
            "the table is complete."),
        "alt": (
            "Two panels against iterations on log axes. Left: infosets met rise along a straight "
            "line, well below a dashed line for all 655,360 infosets. Right: chips won per game "
            "against uniform play rise from near zero."),
    },
    ("07_monte_carlo_cfr.ipynb", "2ffbd68f"): {
        "name": "fig-ch07-vr-mccfr",
        "caption": (
            "Outcome sampling (OS) and VR-MCCFR on Leduc, recorded over a million iterations with "
            "five seeds each. Left: median exploitability, the seeds' range shaded; right: median "
            "summed variance of one update, also for VR-MCCFR's regrets with a zero baseline. As "
            "the baseline learns, VR-MCCFR's variance falls and it pulls ahead."),
        "alt": (
            "Two log-log panels against iterations. Left: the exploitability of OS and VR-MCCFR "
            "falls together, VR-MCCFR pulling ahead later. Right: VR-MCCFR's update variance "
            "falls steadily while OS's and the zero baseline's stay high."),
    },
    ("07_monte_carlo_cfr.ipynb", "c032"): {
        "name": "fig-ch07-bluff4-exercise",
        "caption": (
            "Solution of the exercise: CFR, external sampling and outcome sampling on Bluff with "
            "one four-sided die each, against nodes touched. External sampling stays close to "
            "CFR, outcome sampling falls behind, and on a game this small no sampler catches CFR."),
        "alt": (
            "Log-log plot of exploitability against nodes touched: external sampling starts "
            "lowest, CFR falls faster and ends lowest with external sampling close behind, outcome "
            "sampling flattens well above both."),
    },
    # ---------------------------------------------------------------- chapter 8
    ("08_cfr_plus.ipynb", "c011"): {
        "name": "fig-ch08-switch",
        "caption": (
            "One decision with two actions whose payoffs swap at iteration 50 (grey line): the "
            "probability that regret matching and regret matching+ play $b$, the action that "
            "became better. RM+ switches at once; regret matching must first pay back the debt "
            "$b$ ran up, and switches much later."),
        "alt": (
            "Line plot of the probability of playing b against iterations 1 to 200: both start at "
            "one half and drop to zero; after the switch at 50, RM+ jumps to one at once, regret "
            "matching only much later."),
    },
    ("08_cfr_plus.ipynb", "c013"): {
        "name": "fig-ch08-average-weights",
        "caption": (
            r"Share of the average's total weight held by the iterations up to $t$, for uniform, "
            r"linear and quadratic weights $w_t = t^\gamma$. With growing weights the early "
            "iterations, which play strategies far from equilibrium, fade out of the average."),
        "alt": (
            "Three curves rising from 0 to 1 against the fraction t/T of the run: uniform is the "
            "diagonal, linear bends below it and quadratic lower still, so the first half of the "
            "run holds less and less of the weight."),
    },
    ("08_cfr_plus.ipynb", "c022"): {
        "name": "fig-ch08-which-strategy",
        "caption": (
            r"CFR+ on Leduc: exploitability of the current strategy $\sigma^T$, of the uniform "
            r"average and of the linear average $\bar\sigma^T$. The current strategy improves, "
            "noisily; the uniform average is no better; the linear average is far ahead."),
        "alt": (
            "Log-log plot of exploitability against iterations: the current strategy and the "
            "uniform average fall slowly and end close together; the linear average falls much "
            "faster and ends far below both."),
    },
    ("08_cfr_plus.ipynb", "c025"): {
        "name": "fig-ch08-slopes",
        "caption": (
            "CFR and CFR+ over 10,000 iterations on Kuhn (left) and Leduc (right), with fitted "
            r"lines (slopes in the legends) and references of slope $-1/2$ and $-1$. On Leduc CFR+ "
            r"is lower and steeper; on Kuhn both slopes are close to $-1$ and CFR+ leads by a "
            "roughly constant factor, with large swings."),
        "alt": (
            "Two log-log panels of exploitability against iterations with grey reference lines. "
            "On Kuhn CFR and CFR+ fall in parallel, CFR+ lower and noisier. On Leduc CFR+ falls "
            "much more steeply than CFR."),
    },
    ("08_cfr_plus.ipynb", "a40df3fb"): {
        "name": "fig-ch08-bounds",
        "caption": (
            r"$\sqrt{T}$ times the exploitability of CFR and CFR+ on Kuhn and Leduc, against their "
            "worst-case bounds (dashed). A curve that merely met a $1/\\sqrt{T}$ bound would be "
            "flat; both fall, orders of magnitude below their bounds."),
        "alt": (
            "Two log-log panels against iterations: the square root of T times exploitability "
            "falls for CFR and, faster, for CFR+, while horizontal dashed bound lines sit far "
            "above both curves."),
    },
    ("08_cfr_plus.ipynb", "c031"): {
        "name": "fig-ch08-linear-cfr",
        "caption": (
            "CFR, CFR+ and Linear CFR on Kuhn and Leduc. Linear CFR keeps pace with CFR+ on Kuhn; "
            "on Leduc it improves on CFR early but falls no more steeply, and CFR+ pulls far "
            "ahead."),
        "alt": (
            "Two log-log panels of exploitability against iterations. Kuhn: Linear CFR and CFR+ "
            "overlap, below CFR. Leduc: Linear CFR lies below CFR at a similar slope; CFR+ falls "
            "much more steeply and ends lowest."),
    },
    ("08_cfr_plus.ipynb", "18f13337"): {
        "name": "fig-ch08-kuhn-family",
        "caption": (
            "Where four algorithms meet Kuhn poker's family of equilibria. Left: the average "
            "strategy's bluffing frequency with the jack against its betting frequency with the "
            r"king, the equilibria as the black segment; right: the $\omega$ it implies over the "
            "iterations. Every algorithm ends on the segment, each at a different point."),
        "alt": (
            "Left: paths of CFR, CFR+, Linear CFR and DCFR in the plane of P(bet | jack) and "
            "P(bet | king), all ending on a black segment from the origin. Right: implied omega "
            "against iterations, settling at different levels."),
    },
    # ---------------------------------------------------------------- chapter 9
    ("09_discounted_cfr.ipynb", "c009"): {
        "name": "fig-ch09-discount-factor",
        "caption": (
            "The discount factor $t^e/(t^e+1)$ applied after iteration $t$, for several exponents "
            "$e$. Every factor starts at one half; positive exponents approach 1, the faster the "
            "larger $e$, $e = 0$ stays at one half and negative exponents fall towards 0."),
        "alt": (
            "Curves of the factor against iteration on a log axis, all starting at 0.5: for "
            "e = 5, 1.5, 1 and 0.5 they rise towards 1, fastest for e = 5; e = 0 stays flat at "
            "0.5; e = -1 falls towards 0."),
    },
    ("09_discounted_cfr.ipynb", "c016"): {
        "name": "fig-ch09-alpha-beta-map",
        "caption": (
            r"DCFR on Leduc after 500 iterations at every grid point of $(\alpha, \beta)$, all with "
            r"the quadratic average $\gamma = 2$, coloured by exploitability; circles mark the "
            r"presets' $(\alpha, \beta)$. Keeping negative regrets ($\beta \ge 1$) or discounting "
            r"positive ones hard ($\alpha \le 1$) is poor; elsewhere the exact values matter less."),
        "alt": (
            "Heat map with alpha on the horizontal axis and beta on the vertical: dark, poor cells "
            "fill the top rows and the left columns; bright, good cells fill the lower right. "
            "Circles mark CFR, Linear CFR, DCFR and CFR+."),
    },
    ("09_discounted_cfr.ipynb", "c018"): {
        "name": "fig-ch09-presets",
        "caption": (
            "The presets of the family on Leduc, 1000 iterations each: CFR, CFR+, Linear CFR, "
            "DCFR and predictive CFR+ (PCFR+). DCFR leads throughout; CFR+ and PCFR+ follow, and "
            "Linear CFR and CFR trail."),
        "alt": (
            "Log-log plot of exploitability against iterations for five presets: DCFR lowest "
            "throughout, then PCFR+ and CFR+ crossing, Linear CFR above them and CFR highest."),
    },
    ("09_discounted_cfr.ipynb", "c022"): {
        "name": "fig-ch09-predictive",
        "caption": (
            "CFR+, DCFR and predictive CFR+ over 3000 iterations on Kuhn (left) and Leduc "
            "(right). On Kuhn PCFR+ leaves the others far behind; on Leduc, where consecutive "
            "regrets keep changing, it is slower than both."),
        "alt": (
            "Two log-log panels of exploitability against iterations. Kuhn: PCFR+ falls along a "
            "steep straight line far below CFR+ and DCFR. Leduc: the three fall together, PCFR+ "
            "ending highest and DCFR lowest."),
    },
    ("09_discounted_cfr.ipynb", "4d9f75d3"): {
        "name": "fig-ch09-dcfr-bound",
        "caption": (
            r"$\sqrt{T}$ times the exploitability of CFR+ and DCFR on Kuhn and Leduc, against the "
            r"scale $\Delta |\mathcal{I}| \sqrt{|A|}$ of the bound (dashed). Both fall, far below "
            "the scale: DCFR's speed is measured, not proven."),
        "alt": (
            "Two log-log panels against iterations: the square root of T times exploitability for "
            "CFR+ and DCFR falls on both games, far below a horizontal dashed line for the scale "
            "of the bound."),
    },
    # ---------------------------------------------------------------- chapter 10
    ("10_comparison.ipynb", "cell-009"): {
        "name": "fig-ch10-thesis-ranking",
        "caption": (
            "The thesis's seven variants for 1000 iterations on Leduc with 288 infosets and on "
            "Short Deck Big Leduc, exploitability of the average strategy against iterations. "
            "DCFR and CFR+ with alternating updates lead, simultaneous updates trail their "
            "alternating versions, and outcome sampling barely moves in this budget."),
        "alt": (
            "Two log-log panels of exploitability against iterations for seven variants: DCFR "
            "alt. and CFR+ fall lowest, CFR above them, simultaneous versions (dashed) higher, and "
            "OS-MCCFR flat near the top."),
    },
    ("10_comparison.ipynb", "cell-016"): {
        "name": "fig-ch10-nodes-touched",
        "caption": (
            "Every variant on every game of the comparison against nodes touched: Kuhn, Leduc with "
            "288 and 936 infosets, Short Deck Big Leduc and Bluff 1x1. At equal work the sampling "
            "solvers come close to vanilla CFR, and pass it on Short Deck Big Leduc, but still "
            "trail the full-width variants with modern regret updates."),
        "alt": (
            "Five log-log panels, one per game, of exploitability against nodes touched for eleven "
            "variants with a shared legend: sampling curves start earlier; CFR+, DCFR and PCFR+ "
            "fall steepest and end lowest."),
    },
    ("10_comparison.ipynb", "cell-020"): {
        "name": "fig-ch10-seconds",
        "caption": (
            "Exploitability against seconds spent iterating, on Leduc and Bluff 1x1. The "
            "vectorized full-width variants get further in the same time than the sampling "
            "solvers, which walk the tree node by node: a difference of implementation as much as "
            "of algorithm."),
        "alt": (
            "Two log-log panels of exploitability against time in seconds: full-width variants "
            "fall steeply; the sampling solvers' curves run longer and stay higher."),
    },
    ("10_comparison.ipynb", "cell-027"): {
        "name": "fig-ch10-game-size",
        "caption": (
            "Exploitability after 1000 iterations of each full-width variant on each game, the "
            "games ordered by their number of infosets, each variant in its colour and marker "
            "(hollow: simultaneous updates); on the right, divided by that of CFR with alternating "
            "updates. The gaps do not change uniformly with the size of the game."),
        "alt": (
            "Two dot plots over five games ordered by size, log vertical axes: left, each "
            "variant's exploitability after 1000 iterations; right, relative to CFR alt.: "
            "simultaneous variants above 1, CFR+ and DCFR far below."),
    },
    # ---------------------------------------------------------------- chapter 12
    ("12_beyond_small_games.ipynb", "dfae78a7"): {
        "name": "fig-ch12-abstraction-size",
        "caption": (
            "Abstractions of six-rank Leduc with $k$ buckets per round: every abstract game is "
            "solved to the same precision (squares), but the lifted strategy's exploitability in "
            "the real game (circles, labelled with the abstract infosets) depends on the "
            "abstraction. Solved and good are different things."),
        "alt": (
            "Log-scale plot against abstraction size k from 1 to 6: the abstract solutions stay "
            "flat near 1e-4, while the lifted strategies' exploitability in the real game falls "
            "from above 1 at k = 1 to the same level at k = 6."),
    },
    ("12_beyond_small_games.ipynb", "aa7ebc22"): {
        "name": "fig-ch12-pathology",
        "caption": (
            "Player 0's exploitability in six-rank Leduc as its own abstraction is refined, against "
            "an unabstracted opponent and one abstracted to a single bucket. Against the former "
            "every refinement helps; against the blind opponent the last refinement hurts: Waugh "
            "et al.'s abstraction pathology."),
        "alt": (
            "Log-scale plot against player 0's abstraction size: with player 1 unabstracted the "
            "exploitability falls steeply at every step; with player 1 abstracted it stays roughly "
            "flat near 1 and rises at the last step."),
    },
    ("12_beyond_small_games.ipynb", "45d02cbc"): {
        "name": "fig-ch12-scaling",
        "caption": (
            "Memory (left) and time of one CFR+ iteration (right) against the number of infosets "
            "for the book's games, extrapolated along the fitted lines to heads-up limit hold'em "
            "(star). Both lie far beyond what one machine offers."),
        "alt": (
            "Two log-log panels against infosets: measured points for the book's games lie on a "
            "dashed fitted line that extends to a star for limit hold'em, in the memory panel far "
            "above a dotted line for this machine's 24 GiB."),
    },
    ("12_beyond_small_games.ipynb", "be9c29da"): {
        "name": "fig-ch12-distributed",
        "caption": (
            "Distributed external sampling with two workers (recorded benchmark): exploitability "
            "after each round on Leduc and Bluff 1x1, for the serial and the distributed solver. "
            "Averaging the workers' increments follows the serial run closely; adding them "
            "(merge=sum, on Leduc) makes the exploitability climb."),
        "alt": (
            "Two log-log panels of exploitability against iterations: serial and distributed runs "
            "fall together, the distributed one a little higher on Bluff; on Leduc a third curve, "
            "merge by sum, rises instead."),
    },
    # ---------------------------------------------------------------- chapter 13
    # The claims of these captions are checked against cfrbook/data/frontier_curves.json by
    # tests/test_frontier.py::test_chapter12_captions_state_what_the_recorded_runs_show.
    ("13_frontier.ipynb", "5b310bca"): {
        "name": "fig-ch13-kuhn",
        "caption": (
            "The eight variants of the chapter on Kuhn poker (recorded runs), exploitability of "
            "the average strategy against iterations (left) and seconds (right). The four "
            "predictive variants end more than a thousand times below the other four."),
        "alt": (
            "Two log-log panels of exploitability for eight variants, against iterations and "
            "seconds: the four predictive variants fall far below the others, PDCFR+ lowest; "
            "RTCFR+'s average stays highest."),
    },
    ("13_frontier.ipynb", "6810813e"): {
        "name": "fig-ch13-leduc",
        "caption": (
            "The eight variants on Leduc, against iterations (left) and seconds (right). Here the "
            "predictions are poor: DCFR and DCFR+ end lowest, and PCFR+ and PDCFR+ end behind "
            "CFR+."),
        "alt": (
            "Two log-log panels of exploitability for eight variants, against iterations and "
            "seconds: the curves fall together, DCFR and DCFR+ ending lowest, PCFR+ and PDCFR+ "
            "above CFR+, RTCFR+'s average highest."),
    },
    ("13_frontier.ipynb", "efd59643"): {
        "name": "fig-ch13-bluff3",
        "caption": (
            "The eight variants on Bluff 1x1 with three-sided dice, against iterations (left) and "
            "seconds (right). PDCFR+ and DCFR+ end lowest, below $10^{-11}$; CFR+ and RTCFR+'s "
            "average end highest."),
        "alt": (
            "Two log-log panels of exploitability for eight variants: PDCFR+ and DCFR+ fall "
            "steeply to about 1e-12, the predictive variants and DCFR to a few times 1e-8, CFR+ "
            "and RTCFR+'s average stay higher."),
    },
    ("13_frontier.ipynb", "d2078725"): {
        "name": "fig-ch13-bluff4",
        "caption": (
            "The eight variants on Bluff 1x1 with four-sided dice, against iterations (left) and "
            "seconds (right). The four predictive variants end lowest, PDCFR+ more than a "
            "thousand times below the next."),
        "alt": (
            "Two log-log panels of exploitability for eight variants: PDCFR+ falls fastest, to "
            "about 1e-10, the other predictive variants next, the others more slowly, RTCFR+'s "
            "average slowest."),
    },
    ("13_frontier.ipynb", "c8f2c166"): {
        "name": "fig-ch13-bluff6",
        "caption": (
            "The eight variants on Bluff 1x1 with six-sided dice, against iterations (left) and "
            "seconds (right). All but RTCFR+'s average end within a factor of ten of each other, "
            "DCFR lowest."),
        "alt": (
            "Two log-log panels of exploitability for eight variants: the curves fall together, "
            "noisy, within an order of magnitude of each other; DCFR ends lowest and RTCFR+'s "
            "average highest."),
    },
    ("13_frontier.ipynb", "b9d3e67c"): {
        "name": "fig-ch13-current-strategy",
        "caption": (
            "Average (solid) and current (dashed) strategies of CFR+ and RTCFR+ on five games. "
            "RTCFR+'s current strategy ends below CFR+'s on every game but Bluff with three "
            "sides, where both reach rounding error, and below its own average on every game but "
            "Kuhn."),
        "alt": (
            "Five log-log panels, one per game, of exploitability against iterations for CFR+ and "
            "RTCFR+, average solid and current dashed: RTCFR+'s current strategy falls below the "
            "other curves on Leduc and the larger Bluffs, and stays above its average on Kuhn."),
    },
    ("13_frontier.ipynb", "ch13-current-kuhn"): {
        "name": "fig-ch13-last-kuhn",
        "caption": (
            "Current strategies of the eleven methods on Kuhn poker (recorded runs). The four "
            "predictive variants, ExRM+ and SPRM+ reach rounding error; MMD settles at its "
            "quantal response equilibrium."),
        "alt": (
            "A log-log plot of the current strategy's exploitability against iterations for eleven "
            "methods on Kuhn: six curves fall to rounding error, the predictive ones first, ExRM+ "
            "and SPRM+ later; MMD flattens near 0.05."),
    },
    ("13_frontier.ipynb", "ch13-current-leduc"): {
        "name": "fig-ch13-last-leduc",
        "caption": (
            "Current strategies of the eleven methods on Leduc poker (recorded runs). RTCFR+ ends "
            "lowest; ExRM+ and SPRM+ behind every variant of the chapter; MMD flat at its quantal "
            "response equilibrium."),
        "alt": (
            "A log-log plot of the current strategy's exploitability against iterations for eleven "
            "methods on Leduc: RTCFR+ ends lowest near 0.001, ExRM+ and SPRM+ near 0.05, MMD flat "
            "above 1."),
    },
    ("13_frontier.ipynb", "ch13-current-bluff"): {
        "name": "fig-ch13-last-bluff",
        "caption": (
            "Current strategies of the eleven methods on Bluff 1x1 with 4 sides (recorded runs). "
            "The four predictive variants reach rounding error and RTCFR+ follows; ExRM+ and "
            "SPRM+ end near 0.001; MMD stays at its quantal response equilibrium."),
        "alt": (
            "A log-log plot of the current strategy's exploitability against iterations for eleven "
            "methods on Bluff with 4 sides: the predictive variants fall to rounding error, RTCFR+ "
            "below 1e-8, ExRM+ and SPRM+ to about 0.001, MMD flat near 0.6."),
    },
    # ---------------------------------------------------------------- chapter 14
    ("14_subgame_solving.ipynb", "86e5b9e9"): {
        "name": "fig-ch14-resolving",
        "caption": (
            "Exploitability on Leduc of CFR+ blueprints from one to a thousand iterations and of "
            "the strategies re-solved from them (recorded). The safe methods (re-solve, maxmargin, "
            "reach) are never worse than the blueprint; unsafe re-solving helps poor blueprints, "
            "then stalls and ends far worse."),
        "alt": (
            "Log-log plot of exploitability against the blueprint's CFR+ iterations: blueprint, "
            "re-solve, maxmargin and reach fall together, the safe ones slightly lower; unsafe "
            "starts lowest but flattens and ends far above."),
    },
    ("14_subgame_solving.ipynb", "ch14-search-study"): {
        "name": "fig-ch14-search",
        "caption": (
            "Exploitability on Leduc (recorded) against iterations: of CFR+ blueprints, of the "
            "depth-limited agents built on them with k = 1, 3 and 5 continuations at the end of the "
            "first round and of continual re-solving with as many CFR+ iterations a solve (all "
            "against the blueprint's iterations), and of depth-limited CFR+ with exact values over "
            "ranges (against its own). One value per leaf stalls "
            "near 0.1; more continuations and continual re-solving follow the blueprint from above."),
        "alt": (
            "Log-log plot of exploitability against iterations: the blueprint falls to 0.0002; "
            "depth-limited k = 1 levels off near 0.13, k = 3 near 0.003; k = 5 and continual "
            "re-solving stay a little above the blueprint; exact values fall to 0.02."),
    },
    ("14_subgame_solving.ipynb", "ch14-learned-study"): {
        "name": "fig-ch14-learned-values",
        "caption": (
            "Exploitability on Leduc (recorded) against iterations: of CFR+ blueprints, of "
            "depth-limited CFR+ with exact values over ranges (CFR-D), of the depth-limited agent "
            "that asks a value function for the leaves' values, with the exact one and with networks "
            "fitted on 250 and 4,000 random pairs of ranges (their held-out error in the legend). "
            "With the exact function the agent converges; with a network it climbs after ten "
            "iterations, towards the network's errors."),
        "alt": (
            "Log-log plot of exploitability against iterations: the blueprint falls to 0.0002, exact "
            "values over ranges to 0.02, the exact value function from 0.17 to 0.07; both learned "
            "agents start near 0.16 at 10 iterations and rise to about 0.3 and 0.5."),
    },
    ("14_subgame_solving.ipynb", "ch14-off-tree-study"): {
        "name": "fig-ch14-off-tree",
        "caption": (
            "Exploitability in no-limit Leduc (recorded) of the LP's equilibrium with half-pot and "
            "two-pot bets, in the game that adds the opponent's bet size on the horizontal axis: "
            "played by pseudo-harmonic action translation, and with nested safe solving after the "
            "new bet. Nested solving is lower at every size; both cost most outside the known sizes."),
        "alt": (
            "Two lines against the bet size from a quarter pot to four pots, log scale, dashed "
            "verticals at 0.5 and 2: translation near 0.05 to 0.07 between them and up to 0.28 "
            "outside; nested solving below it everywhere, at most 0.17."),
    },
    ("14_subgame_solving.ipynb", "ch14-coin-tree"): {
        "name": "fig-ch14-coin-toss",
        "caption": (
            "Coin Toss on its side: chance tosses the coin, player 0 sees it (infosets `H` and "
            "`T`) and sells or plays; after *play*, player 1 guesses without seeing it. The two "
            "histories where player 1 guesses form one infoset, `play`, and one public state: the "
            "root of the Play subgame (shaded). The Sell payoffs lie outside it."),
        "alt": (
            "Tree with the root at the left: a chance node splits into heads and tails, each a "
            "player 0 node with sell (payoff +0.5 or -0.5) and play; both play nodes belong to "
            "player 1's infoset play, each in a shaded box with heads and tails payoffs of 1."),
    },
    ("15_deep_cfr.ipynb", "ch15-loop-diagram"): {
        "name": "fig-ch15-loop",
        "caption": (
            "One Deep CFR iteration and its end. Traversals store sampled regrets in a reservoir; "
            "an advantage network per player is trained anew on it, and regret matching on its "
            "output is the next strategy. The strategies met at the opponent's infosets fill a "
            "second reservoir, on which the policy network is trained once, at the end."),
        "alt": (
            "Diagram: traversals store into a regret memory, which trains an advantage network "
            "whose regret matching feeds the next traversals in a loop; traversals also store "
            "into a strategy memory, which trains a policy network, the average strategy."),
    },
    ("15_deep_cfr.ipynb", "ede5516b"): {
        "name": "fig-ch15-leduc",
        "caption": (
            "Deep CFR on Leduc hold'em across seeds, recorded: exploitability against traversals "
            "per player of each seed's policy network (thin) and their median, of Single Deep CFR's "
            "strategy (the exact average of the networks' iterates), of the exact fit (every "
            "network replaced by the minimiser of its loss), of runs with the tuned training (a "
            "learning rate of 0.01, 12,000 steps for the policy network) at 250 and at 125 "
            "traversals an iteration, and of tabular external sampling on Leduc and on Leduc with "
            "suits merged."),
        "alt": (
            "Log-log plot of exploitability against traversals: orange seed lines and median "
            "curves fall from about 2; the black dashed exact fit, the orange dash-dot-dot run of "
            "125 an iteration and the suits-merged table end below a dotted 0.05 line."),
    },
    # ---------------------------------------------------------------- chapter 16
    ("16_holdem.ipynb", "ch16-sweep-figure"): {
        "name": "fig-ch16-sweep",
        "caption": (
            "The O(n) showdown for the hand QdJd on the river Td 9d 6h Qc 2s. Top: the opponent's "
            "hands sorted by strength, each bar its reach, coloured by whether QdJd beats it, ties "
            "it or loses to it; the two hands holding the Qd or the Jd are blocked. Bottom: the "
            "running sums of reach, all hands and unblocked; the unblocked sum read at lo and hi "
            "gives what QdJd wins and loses."),
        "alt": (
            "Top: twelve bars of reach, weakest hand first: green hands QdJd beats, a grey tie, red "
            "hands that beat it, two hatched blocked ones. Bottom: two rising step curves with "
            "dotted lines at lo and hi and arrows marking W and L."),
    },
    ("16_holdem.ipynb", "ch16-curves"): {
        "name": "fig-ch16-curves",
        "caption": (
            "CFR, CFR+ and DCFR on the turn spot Td 9d 6h Qc (pot 200, stacks 900), recorded: "
            "exploitability in % of the pot against iterations, alternating updates, one thread. "
            "DCFR crosses the dotted 0.5% line first, CFR+ next, vanilla CFR last."),
        "alt": (
            "Log-log plot of exploitability in percent of the pot against iterations 1 to 1000: "
            "three falling curves, DCFR lowest, CFR+ close to it, CFR far above, with a dotted "
            "line at 0.5 percent."),
    },
}
