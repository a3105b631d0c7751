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


# ---------------------------------------------------------------- parts worked out once per call

PER_CALL_RULES = [
    # FreeCell's supermove: the counts of empty cells and columns read no site argument.
    "count(cards) <= (count(Cell, empty(it)) + 1) * (count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) >= 2 ? 4 : "
    "count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) == 1 ? 2 : 1)",
    # A guarded top outside any quantifier: written per call, it must not read an empty pile.
    "!empty(cell[0]) && card.rank == top(cell[0]).rank + 1",
    # Quantifiers that read the site (depot, card) stay where they are; the closed one is hoisted.
    "count(c in cell, c != depot && !empty(c) && top(c).rank == card.rank) < count(Tableau, !empty(it))",
    "any(c in cell, all(d in cell, count(d) <= count(c))) || empty(depot)",
]


def _per_call_function(code: InlineCode, texts: list[str], env: object) -> tuple[object, list[object], str]:
    """One function that works out every rule of ``texts`` with per-call, per-target and per-source parts
    hoisted the way the move lister writes them (per call first), returning each rule's value."""
    names = {"card": "c", "cards": "run", "source": "src", "depot": "dst"}
    per_call: list[str] = []
    body = ["pd = P[dst]"]
    results = []
    compiled = []
    for text in texts:
        checked = check(text, Site.ACCEPT, env)  # type: ignore[arg-type]
        compiled.append(compile_rule(checked, env))  # type: ignore[arg-type]
        inline = code.hoisting_both(
            checked, names, "pd", frozenset({"card", "cards", "source"}), frozenset({"depot", "top"}), per_call=True
        )
        per_call += [f"{local} = {value}" for local, value in inline.per_call]
        body += [f"{local} = {value}" for local, value in inline.target + inline.outer]
        results.append(f"(True if {inline.text} else False)")
    body.append(f"return ({', '.join(results)},)")
    function, source = code.function("test_all", ["P", "S", "c", "run", "src", "dst"], per_call + body)
    return function, compiled, source


def _disagreements(function: object, compiled: list[object], seed: int) -> tuple[int, int]:
    """(pairs compared, pairs where the hoisted test and the compiled rule differ) on random piles."""
    rng = random.Random(seed)
    compared = wrong = 0
    for _ in range(400):
        piles = _random_piles(rng)
        source, depot = rng.randrange(25), rng.randrange(25)
        if not piles[source] or source == depot:
            continue
        cards = piles[source][-rng.randint(1, len(piles[source])):]
        got = function(piles, None, cards[0], cards, source, depot)  # type: ignore[operator]
        for rule, value in zip(compiled, got, strict=True):
            compared += 1
            wrong += value != bool(rule.fn(piles, None, cards[0], cards, source, depot))  # type: ignore[attr-defined]
    return compared, wrong


def test_parts_that_read_no_site_argument_are_worked_out_once_per_call_and_agree_with_the_compiled_rules() -> None:
    env = seed_env("monte-carlo")
    code = InlineCode(env)
    function, compiled, source = _per_call_function(code, PER_CALL_RULES, env)
    per_call_lines = [line.strip() for line in source.split("\n") if re.match(r"\s+_c\d+ = ", line)]
    assert len(per_call_lines) >= 4, source
    # count(Tableau, empty(it)) is twice in the first rule: one local, no part written twice.
    assert len({line.split(" = ", 1)[1] for line in per_call_lines}) == len(per_call_lines), per_call_lines
    assert re.search(r"def _q\d+\(P, S, _items\)", source), "a quantifier that reads no site argument takes none"
    compared, wrong = _disagreements(function, compiled, seed=11)
    assert compared > 400 and wrong == 0


def test_the_unguarded_writing_of_per_call_parts_is_what_keeps_them_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Written with the rule's own guards, ``top(cell[0]).rank`` worked out before ``!empty(cell[0])`` holds reads
    an empty pile: the agreement test above fails (raises) on that version."""
    from cardz_tools.expr import inline

    monkeypatch.setattr(inline, "_unguarded", lambda checked: checked)
    env = seed_env("monte-carlo")
    function, compiled, _ = _per_call_function(InlineCode(env), PER_CALL_RULES[1:2], env)
    with pytest.raises(IndexError):
        _disagreements(function, compiled, seed=11)


def test_every_shipped_accept_rule_hoisted_per_call_agrees_with_its_compiled_rule() -> None:
    """Every accept rule of games/, its parts hoisted as the move lister hoists them (per call, per target,
    per source), against the compiled rule on random positions of its game and on random cards moved."""
    from cardz_tools.engine import Game
    from cardz_tools.engine.rules import _checked, _environment
    from cardz_tools.loading import open_design
    from tests.engine_support import GAMES, random_positions

    names = {"card": "_card", "cards": "_cards", "source": "_source", "depot": "_depot"}
    hoisted_per_call = compared = 0
    for path in sorted(GAMES.glob("*.cardz")):
        design = open_design(path).design
        game = Game(design)
        env = _environment(design)
        rules = {d.spec.accept.when.text: d.spec.accept.when for d in design.depots if d.spec.accept.when is not None}
        for text, expr in sorted(rules.items()):
            checked = _checked(expr, Site.ACCEPT, env)
            reference = compile_rule(checked, env)
            code = InlineCode(env)
            inline = code.hoisting_both(
                checked, names, "_pd", frozenset({"card", "cards", "source"}), frozenset({"depot", "top"}),
                residual=True, per_call=True,
            )
            hoisted_per_call += len(inline.per_call)
            body = [*(f"{local} = {value}" for local, value in inline.per_call), "_pd = P[_depot]",
                    *(f"{local} = {value}" for local, value in inline.target + inline.outer),
                    f"return True if {inline.text} else False"]
            test, _ = code.function("test", ["P", "S", "_card", "_cards", "_source", "_depot"], body)
            rng = random.Random(path.stem)
            for state in random_positions(game, 6, seed=3, max_moves=40):
                piles = state.piles
                for _ in range(30):
                    source, depot = rng.randrange(len(piles)), rng.randrange(len(piles))
                    if not piles[source] or (reference.static is not None and not reference.static(source, depot)):
                        continue
                    cards = piles[source][-rng.randint(1, len(piles[source])):]
                    expected = bool(reference.residual(piles, state, cards[0], cards, source, depot))
                    assert test(piles, state, cards[0], cards, source, depot) == expected, (path.stem, text)
                    compared += 1
    assert compared > 1000 and hoisted_per_call >= 4, (compared, hoisted_per_call)


def test_freecell_works_out_its_supermove_counts_once_per_position() -> None:
    """The move lister counts the empty cells and columns once per call (one local per count, the four
    copies of the column count in the rule shared), and no quantifier is called inside its loops."""
    from cardz_tools.engine import Game
    from cardz_tools.loading import open_design
    from tests.engine_support import GAMES

    source = Game(open_design(GAMES / "freecell.cardz").design).move_lister_source
    body = source[source.index("def _list_moves"):]
    head, loops = body.split("_source = ", 1)
    assert source.count("def _q") == 2
    assert len(re.findall(r"\n\s+_c\d+ = .*_q\d+\(P, S, _k\d+\)", head)) == 2
    assert "_q" not in loops
