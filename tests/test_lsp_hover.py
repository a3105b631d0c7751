"""Hover: schema documentation on keys, builtins inside expressions, depot definitions."""

from __future__ import annotations

from cardz_tools.expr.builtins import FUNCTIONS
from cardz_tools.lsp.document import Snapshot
from cardz_tools.lsp.hover import hover
from cardz_tools.schema import load_packaged_schema
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")
SNAPSHOT = Snapshot.of(TEXT, SEED)
SCHEMA = load_packaged_schema()


def _hover(needle: str, shift: int, text: str = TEXT) -> str | None:
    snapshot = SNAPSHOT if text == TEXT else Snapshot.of(text, SEED)
    found = hover(snapshot, snapshot.index.position(text.index(needle) + shift))
    return found.markdown if found else None


def test_a_key_shows_the_schema_documentation_for_its_place() -> None:
    defs = SCHEMA["$defs"]
    assert defs["AcceptRuleObject"]["properties"]["single"]["markdownDescription"] in (_hover('"single"', 2) or "")
    # `when` means different things in an accept rule and in a trigger.
    accept_when = _hover('"when": "adjacent', 2)
    trigger_when = _hover('"when": "count(depot) == 2"', 2)
    assert accept_when != trigger_when
    assert defs["Trigger"]["properties"]["when"]["markdownDescription"] in (trigger_when or "")
    assert SCHEMA["properties"]["depotOnly"]["markdownDescription"] in (_hover('"depotOnly"', 3) or "")


def test_functions_and_fields_show_their_signature_and_description() -> None:
    adjacent = _hover("adjacent(", 2) or ""
    overload = FUNCTIONS["adjacent"].overloads[0]
    assert overload.signature("adjacent") in adjacent and overload.description in adjacent
    assert "Card.rank: Rank" in (_hover("card.rank", 6) or "")
    assert "Suit.color: Color" in (
        _hover("card.suit.color", 11, TEXT.replace("card.rank == top.rank", "card.suit.color == Red")) or ""
    )


def test_site_names_show_their_type_for_the_rule_site() -> None:
    assert (_hover("card.rank", 1) or "").startswith("**card**: Card (accept rules)")
    assert (_hover("top.rank", 1) or "").startswith("**top**: Card?")


def test_a_depot_name_shows_where_it_is_defined() -> None:
    in_expression = _hover("empty(stock)", 8) or ""
    assert "Stock at col 5.5, row 0" in in_expression
    in_reference = _hover('"to": "discard"', 9) or ""
    assert "Foundation at col 5.5, row 1.5" in in_reference
    group = _hover('"group": "cell"', 11) or ""
    assert "repeat 25 (5 per row)" in group


def test_a_plain_value_shows_what_its_key_means_and_punctuation_nothing() -> None:
    assert _hover('"Monte Carlo"', 3) == SCHEMA["properties"]["name"]["markdownDescription"]
    assert _hover(" && !empty", 1) is None
    assert _hover('"depots": [', 11) is None
