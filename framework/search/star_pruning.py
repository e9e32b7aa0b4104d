"""Star1 and Star2 pruning for expectimax (Ballard 1983; Hauk, Buro & Schaeffer 2004): the
pruned search `_Expectimax` runs when the game declares finite utility bounds.  Fail-soft
alpha-beta at decision nodes; at chance nodes, Star1's windows from the bounds of the
unsearched outcomes and Star2's probing phase (see framework/search/expectimax.py).
"""
from __future__ import annotations

import math

INF = math.inf


class _OutsideBounds(Exception):
    """A value outside the declared utility bounds: pruning would not be exact."""


class StarPruningMixin:
    """Part of `_Expectimax` (framework.search.expectimax): the pruned search."""

    def _pruned_search(self, probing):
        """value(state, player, depth, alpha, beta) -> (fail-soft value, line)."""
        tick = self.budget.tick
        horizon = self._horizon
        offset = self.offset
        low, high = self.low, self.high
        tt_probe, tt_store = self._table_functions()
        marks = self.horizon_marks
        rules = self.rules
        terminal, utility, chance_node, outcomes = rules.terminal, rules.utility, rules.chance, rules.outcomes
        player_of, actions_of, result = rules.player, rules.actions, rules.result

        def outside(v):
            return _OutsideBounds(f"value {v + offset} outside the utility bounds "
                                  f"[{low + offset}, {high + offset}]")

        def value(state, player, depth, alpha, beta):
            tick()
            if terminal(state):
                v = utility(state, player) - offset
            elif depth == 0:
                v = horizon(state, player)
            else:
                if tt_probe is not None:
                    if (known := tt_probe(state, player, depth)) is not None:
                        return known
                    before = marks()
                if chance_node(state):
                    answer = chance(state, player, depth, alpha, beta), None
                else:
                    mover = player_of(state)
                    if mover == player:
                        answer = decision(state, player, depth, alpha, beta, None)
                    else:
                        v, line = decision(state, mover, depth, -beta, -alpha, None)
                        answer = -v, line
                if tt_store is not None and alpha < answer[0] < beta:     # exact
                    tt_store(state, player, depth, answer[0], answer[1], marks() == before)
                return answer
            if v < low or v > high:
                raise outside(v)
            return v, None

        def decision_for(state, player, depth, alpha, beta, first):
            """A decision node's value for `player`, whoever moves there (as in `value`);
            `first` is (value for the mover, line) of its first move, searched by a probe."""
            mover = player_of(state)
            if mover == player:
                return decision(state, player, depth, alpha, beta, first)
            v, line = decision(state, mover, depth, -beta, -alpha, first)
            return -v, line

        def decision(state, player, depth, alpha, beta, first):
            actions = actions_of(state)
            best, best_line = -INF, None
            if first is not None:             # exact, or a bound that fails the same way
                best, line = first
                best_line = (actions[0], line)
                if best > alpha:
                    if best >= beta:
                        self.cutoffs += 1
                        return best, best_line
                    alpha = best
                actions = actions[1:]
            for action in actions:
                v, line = value(result(state, action), player, depth - 1, alpha, beta)
                if v > best:
                    best, best_line = v, (action, line)
                    if v > alpha:
                        if v >= beta:
                            self.cutoffs += 1
                            break
                        alpha = v
            return best, best_line

        def star1(state, player, depth, alpha, beta):
            """A chance node by Star1: the unsearched outcomes lie in [low, high]."""
            known, unsearched = 0, 1          # value so far, probability not yet searched
            for outcome, p in outcomes(state):
                unsearched -= p
                fail_low = (alpha - known - high * unsearched) / p   # outcome value at or
                fail_high = (beta - known - low * unsearched) / p    # beyond these: cut
                if fail_low >= high:
                    self.cutoffs += 1
                    return known + high * (p + unsearched)
                if fail_high <= low:
                    self.cutoffs += 1
                    return known + low * (p + unsearched)
                v = value(result(state, outcome), player, depth - 1,
                          fail_low if fail_low > low else low,
                          fail_high if fail_high < high else high)[0]
                if v <= fail_low:
                    self.cutoffs += 1
                    return known + p * v + high * unsearched
                if v >= fail_high:
                    self.cutoffs += 1
                    return known + p * v + low * unsearched
                known += p * v
            return known

        def star2(state, player, depth, alpha, beta):
            """A chance node by Star2: probe, then Star1 with each outcome's own bounds."""
            pairs = outcomes(state)
            count = len(pairs)
            children = [result(state, outcome) for outcome, _ in pairs]
            probabilities = [probability for _, probability in pairs]
            lows, highs, firsts = [low] * count, [high] * count, [None] * count
            first_marks = [0] * count         # horizon marks of each first-move probe
            cut = probe(children, probabilities, player, depth, alpha, beta, lows, highs, firsts,
                        first_marks)
            if cut is not None:
                self.cutoffs += 1
                return cut
            rest_low = sum(p * lo for p, lo in zip(probabilities, lows))
            rest_high = sum(p * hi for p, hi in zip(probabilities, highs))
            known = 0
            for i in range(count):
                p, lo, hi = probabilities[i], lows[i], highs[i]
                rest_low -= p * lo
                rest_high -= p * hi
                fail_low = (alpha - known - rest_high) / p
                fail_high = (beta - known - rest_low) / p
                if fail_low >= hi:
                    self.cutoffs += 1
                    return known + p * hi + rest_high
                if fail_high <= lo:
                    self.cutoffs += 1
                    return known + p * lo + rest_low
                if lo == hi:                  # settled exactly by the probing phase
                    v = lo
                else:
                    a = fail_low if fail_low > lo else lo
                    b = fail_high if fail_high < hi else hi
                    if firsts[i] is None:
                        v = value(children[i], player, depth - 1, a, b)[0]
                    else:                     # searched here, not by `value`: store it here
                        before = marks()
                        v, line = decision_for(children[i], player, depth - 1, a, b, firsts[i])
                        if tt_store is not None and a < v < b:
                            tt_store(children[i], player, depth - 1, v, line,
                                     marks() == before and not first_marks[i])
                    if v <= fail_low:
                        self.cutoffs += 1
                        return known + p * v + rest_high
                    if v >= fail_high:
                        self.cutoffs += 1
                        return known + p * v + rest_low
                known += p * v
            return known

        def probe(children, probabilities, player, depth, alpha, beta, lows, highs, firsts,
                  first_marks):
            """Star2's probing phase: bounds from each outcome's first move (kept in
            `firsts` for the search phase, with the horizon marks each one made in
            `first_marks`); the chance node's fail-soft value if the bounds already cut it
            off, else None."""
            sum_low = sum(p * lo for p, lo in zip(probabilities, lows))
            sum_high = sum(p * hi for p, hi in zip(probabilities, highs))
            for i, child in enumerate(children):
                p, lo, hi = probabilities[i], lows[i], highs[i]
                v = None                          # the outcome's exact value, when known
                if depth == 1 or terminal(child):
                    v = value(child, player, depth - 1, lo, hi)[0]
                elif tt_probe is not None and (known := tt_probe(child, player, depth - 1)) is not None:
                    tick()
                    v = known[0]
                if v is not None:
                    lows[i] = highs[i] = v
                    sum_low += p * (v - lo)
                    sum_high += p * (v - hi)
                elif chance_node(child):
                    continue
                else:
                    tick()
                    mover = player_of(child)
                    first = result(child, actions_of(child)[0])
                    before = marks()
                    if mover == player:       # the first move's value bounds the child below
                        target = min(hi, (beta - sum_low + p * lo) / p)
                        if lo >= target:
                            continue
                        firsts[i] = value(first, player, depth - 2, lo, target)
                        first_marks[i] = marks() - before
                        w = firsts[i][0]
                        if w > lo:
                            lows[i] = w
                            sum_low += p * (w - lo)
                    else:                     # ... or, for the opponent's move, above
                        target = max(lo, (alpha - sum_high + p * hi) / p)
                        if target >= hi:
                            continue
                        firsts[i] = value(first, mover, depth - 2, -hi, -target)
                        first_marks[i] = marks() - before
                        w = -firsts[i][0]
                        if w < hi:
                            highs[i] = w
                            sum_high += p * (w - hi)
                if sum_low >= beta:
                    return sum_low
                if sum_high <= alpha:
                    return sum_high
            return None

        chance = star2 if probing else star1
        return value
