"""Completion: schema keys and values for the object at the cursor, names in scope at a rule site."""

from __future__ import annotations

from cardz_tools.lsp.completion import ItemKind, complete
from cardz_tools.lsp.document import Snapshot
from cardz_tools.lsp.locate import Where, locate
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
RULE = "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"


def _labels(text: str, offset: int, snapshot: Snapshot | None = None) -> list[str]:
    snapshot = snapshot or Snapshot.of(text, SEED)
    if snapshot.text != text:
        snapshot = Snapshot(text, snapshot.context, SEED)
    return [item.label for item in complete(snapshot, snapshot.index.position(offset))]


def _with_rule(where: str, rule: str) -> str:
    """The seed with one expression replaced (the cursor goes at the end of ``rule``)."""
    text = SEED.read_text(encoding="utf-8")
    old = {"accept": RULE, "scoring": "count(discard)"}[where]
    return text.replace(f'"{old}"', f'"{rule}"')


def test_card_is_offered_in_an_accept_rule_but_not_in_scoring() -> None:
    accept = _with_rule("accept", "empty(depot) && ca")
    scoring = _with_rule("scoring", "count(discard) + ca")
    accept_labels = _labels(accept, accept.index("&& ca") + 5)
    scoring_labels = _labels(scoring, scoring.index("+ ca") + 4)
    assert {"card", "cards", "source", "depot", "top"} <= set(accept_labels)
    assert not {"card", "cards", "source", "depot"} & set(scoring_labels)
    assert scoring_labels.count("top") == 1  # the function top(d), not the site name
    for labels in (accept_labels, scoring_labels):
        assert {"discard", "stock", "cell", "Foundation", "adjacent", "count", "King", "Hearts", "Red"} <= set(labels)


def test_it_is_offered_only_inside_a_binder() -> None:
    inside = _with_rule("scoring", "count(cell, empty(i")
    outside = _with_rule("scoring", "count(cell) + i")
    assert "it" in _labels(inside, inside.index("empty(i") + 7)
    assert "it" not in _labels(outside, outside.index("+ i") + 3)


def test_after_a_dot_the_fields_of_the_receivers_type() -> None:
    card = _with_rule("accept", "card.")
    suit = _with_rule("accept", "card.suit.")
    top_of = _with_rule("accept", "top(depot).r")
    assert _labels(card, card.index("card.") + 5) == ["rank", "suit", "color", "value", "faceUp"]
    assert _labels(suit, suit.index("suit.") + 5) == ["color"]
    assert "rank" in _labels(top_of, top_of.index(").r") + 3)


def test_a_field_replaces_what_is_typed_of_it_and_nothing_else() -> None:
    text = _with_rule("accept", "card.ra")
    offset = text.index("card.ra") + 7
    snapshot = Snapshot.of(text, SEED)
    rank = next(item for item in complete(snapshot, snapshot.index.position(offset)) if item.label == "rank")
    assert rank.kind is ItemKind.FIELD and rank.new_text == "rank"
    assert rank.range.start == snapshot.index.position(offset - 2) and rank.range.end == snapshot.index.position(offset)


def test_keys_are_those_of_the_object_at_the_cursor_less_those_it_has() -> None:
    text = SEED.read_text(encoding="utf-8")
    accept = text.replace('"single": true,', '"single": true, "",')
    assert _labels(accept, accept.index('""') + 1) == ["when", "reason", "follow", "wildRank", "wildDeclares", "allow"]
    depot = text.replace('"perRow": 5,', '"perRow": 5, "",')
    labels = _labels(depot, depot.index('""') + 1)
    assert {"acceptRule", "triggers", "draw", "ejectRule"} <= set(labels)
    assert not {"type", "name", "repeat", "perRow", "single", "decks"} & set(labels)


def test_keys_are_offered_while_the_json_is_still_broken() -> None:
    text = SEED.read_text(encoding="utf-8")
    snapshot = Snapshot.of(text, SEED)
    broken = text.replace(
        '"lossCondition": { "kind": "noLegalMoves" },', '"lossCondition": { "kind": "noLegalMoves", "wh '
    )
    assert broken != text
    cursor = broken.index('"wh ') + 3
    assert locate(broken, cursor).where is Where.KEY
    assert _labels(broken, cursor, snapshot) == ["depots", "when"]


def test_enum_values_and_depot_references() -> None:
    text = SEED.read_text(encoding="utf-8")
    assert _labels(text, text.index('"type": "Stock"') + 9)[:6] == [
        "Stock",
        "Waste",
        "Foundation",
        "Tableau",
        "Cell",
        "Reserve",
    ]
    assert _labels(text, text.index('"kind": "allCardsIn"') + 9) == ["allCardsIn", "depotsEmpty", "when"]
    effect_to = _labels(text, text.index('"to": "discard"') + 7)
    assert {"cell", "stock", "discard", "Foundation", "@self"} <= set(effect_to)
    deal_to = _labels(text, text.index('"to": "cell"') + 7)
    assert "cell" in deal_to and "@self" not in deal_to


def test_no_expression_names_in_a_plain_string() -> None:
    text = SEED.read_text(encoding="utf-8")
    assert _labels(text, text.index('"Monte Carlo"') + 3) == []


def test_it_is_not_offered_in_the_collection_of_a_binder_where_it_is_not_bound_yet() -> None:
    # Issue 21: inside `sum(|Tableau, ...)` in scoring, `it` was offered first and the checker then said CZ407.
    text = _with_rule("scoring", "sum(T, count(it))")
    collection = _labels(text, text.index("sum(T") + 5)
    body = _labels(text, text.index("count(it") + 8)
    assert "it" not in collection and "Tableau" in collection
    assert "it" in body


def test_a_named_binder_offers_its_name_and_chain_offers_prev() -> None:
    named = _with_rule("scoring", "count(c in cell, empty(c")
    labels = _labels(named, named.rindex("empty(c") + 7)  # the scoring's, not the action's
    assert "c" in labels and "it" not in labels
    chain = _with_rule("accept", "chain(cards, it.rank == p")
    labels = _labels(chain, chain.index("== p") + 4)
    assert {"it", "prev"} <= set(labels)


def test_top_is_offered_once_in_an_accept_rule_with_both_meanings() -> None:
    # Issue 21: `top` appeared twice at an accept site (the site's top card and the function top(d)).
    text = _with_rule("accept", "empty(depot) && to")
    snapshot = Snapshot.of(text, SEED)
    items = [
        item for item in complete(snapshot, snapshot.index.position(text.index("&& to") + 5)) if item.label == "top"
    ]
    assert len(items) == 1
    assert items[0].kind is ItemKind.VARIABLE and "top(" in (items[0].documentation or "")
