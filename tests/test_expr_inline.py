"""Inline expressions (expr/inline.py) compute what the compiled rules compute, under the caller's names."""

from __future__ import annotations

import random
import re

import pytest

from cardz_tools.cards import FACE_UP, standard_deck
from cardz_tools.expr import Site, check, compile_rule
from cardz_tools.expr.inline import InlineCode
from cardz_tools.expr.sandbox import UnsafeCode
from tests.expr_support import seed_env

ACCEPT_RULES = [
    "adjacent(source, depot) && !empty(depot) && card.rank == top.rank",
    "empty(depot) ? card.rank == King : card.color != top.color && card.rank + 1 == top.rank",
    "any(cell, count(it) == count(depot)) && all(cards, it.faceUp) && index(source) < 20",
    "count(c in cell, c != depot && !empty(c) && top(c).rank == card.rank) >= 1",
]


def _random_piles(rng: random.Random) -> list[tuple[int, ...]]:
    deck = standard_deck()
    rng.shuffle(deck)
    piles: list[tuple[int, ...]] = []
    for _ in range(27):
        size = rng.choice((0, 0, 1, 1, 2))
        piles.append(tuple(c | FACE_UP for c in deck[:size]))
        deck = deck[size:]
    return piles


@pytest.mark.parametrize("by_side", [False, True], ids=["source side hoisted", "target side too"])
@pytest.mark.parametrize("residual", [False, True])
def test_inline_accept_rules_agree_with_the_compiled_rules(residual: bool, by_side: bool) -> None:
    env = seed_env("monte-carlo")
    code = InlineCode(env)
    names = {"card": "c", "cards": "run", "source": "src", "depot": "dst"}
    body = ["pd = P[dst]"]
    results = []
    compiled = []
    targets_hoisted = 0
    for text in ACCEPT_RULES:
        checked = check(text, Site.ACCEPT, env)
        rule = compile_rule(checked, env)
        compiled.append(rule)
        outer = frozenset({"card", "cards", "source"})
        if by_side:  # the target-only parts, written without guards, come first (empty piles included)
            inline = code.hoisting_both(checked, names, "pd", outer, frozenset({"depot", "top"}), residual)
            expression, hoisted = inline.text, inline.target + inline.outer
            targets_hoisted += len(inline.target)
        else:
            expression, hoisted = code.hoisting(checked, names, "pd", outer, residual)
        assert "cell" not in expression and "King" not in expression, "design names never reach the source"
        body += [f"{local} = {value}" for local, value in hoisted]
        results.append(f"(True if {expression} else False)")
    assert targets_hoisted >= 2 or not by_side, "top.rank and top.color read once per target"
    body.append(f"return ({', '.join(results)},)")
    test_all, source = code.function("test_all", ["P", "S", "c", "run", "src", "dst"], body)
    assert source.count("def _q") >= 2, "quantifiers of different rules get functions of their own"
    rng = random.Random(4)
    checked_pairs = 0
    for _ in range(300):
        piles = _random_piles(rng)
        source, depot = rng.randrange(25), rng.randrange(25)
        if not piles[source] or source == depot:
            continue
        cards = piles[source][-1:]
        got = test_all(piles, None, cards[0], cards, source, depot)
        for rule, value in zip(compiled, got, strict=True):
            if residual and rule.static is not None and not rule.static(source, depot):
                continue  # the residual is only valid where the static part holds
            expected = (rule.residual if residual else rule.fn)(piles, None, cards[0], cards, source, depot)
            assert value == bool(expected)
            checked_pairs += 1
    assert checked_pairs > 100


def test_a_rule_that_is_all_static_leaves_a_true_residual() -> None:
    env = seed_env("monte-carlo")
    checked = check("adjacent(source, depot)", Site.ACCEPT, env)
    assert InlineCode(env).hoisting(checked, {"source": "s", "depot": "d"}, "pd", frozenset(), residual=True) == (
        "True",
        [],
    )


def test_generated_functions_pass_the_sandbox_audit_with_only_the_attributes_named() -> None:
    env = seed_env("monte-carlo")
    code = InlineCode(env)
    with pytest.raises(UnsafeCode, match="append"):
        code.function("f", ["P", "S"], ["P.append(1)", "return 0"])
    with pytest.raises(UnsafeCode, match="__class__"):
        code.function("f", ["P", "S"], ["return S.__class__"], {"__class__"})
    assert code.function("f", ["P", "S"], ["return S.uses"], {"uses"})[0]([], _Uses()) == 3


class _Uses:
    uses = 3


def test_names_that_are_not_python_identifiers_are_refused() -> None:
    env = seed_env("monte-carlo")
    checked = check("count(depot) == 2", Site.TRIGGER, env)
    with pytest.raises(ValueError):
        InlineCode(env).expression(checked, {"depot": "P[0]"}, "pd")


def test_an_inline_test_says_which_locals_it_reads_and_reads_a_pile_used_once_in_place() -> None:
    env = seed_env("monte-carlo")
    names = {"card": "c", "depot": "d"}
    once = InlineCode(env).hoisting_both(
        check("!empty(depot)", Site.ACCEPT, env), names, "pd", frozenset(), frozenset(), pile_once="P[d]"
    )
    assert "P[d]" in once.text and "pd" not in once.text and once.reads.get("pd", 0) == 0
    twice = InlineCode(env).hoisting_both(
        check("!empty(depot) && card.rank == top.rank", Site.ACCEPT, env), names, "pd", frozenset(), frozenset(),
        pile_once="P[d]",
    )
    words = re.findall(r"\w+", twice.text)
    assert twice.reads["pd"] == words.count("pd") >= 2 and twice.reads["c"] == words.count("c") >= 1
    assert "P[d]" not in twice.text


def test_binding_a_test_to_one_target_writes_its_names_where_the_emitter_wrote_them() -> None:
    env = seed_env("monte-carlo")
    names = {"card": "c", "source": "src", "depot": "d"}
    checked = check("source != depot && card.rank == top.rank", Site.ACCEPT, env)
    hoisted = InlineCode(env).hoisting_both(checked, names, "pd", frozenset(), frozenset({"depot", "top"}))
    assert hoisted.target, "top.rank reads only the target: it is worked out per target"
    locals_ = {local: f"{local}_7" for local, _ in hoisted.target}
    bound = hoisted.at({"d": "7", **locals_})
    words = re.findall(r"\w+", bound.text)
    assert "d" not in words and "7" in words and all(local in words for local in locals_.values())
    assert [local for local, _ in bound.target] == list(locals_.values())
    assert all("d" not in re.findall(r"\w+", text) for _, text in bound.target)
