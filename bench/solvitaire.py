"""Our verdicts against Solvitaire's, deal by deal, on the same deals.

    python bench/solvitaire.py --solvitaire PATH [--games klondike,canfield-runs] [--deals N] [--seed S]
                               [--first I] [--seconds T] [--budget N] [--export-only DIR]

Solvitaire (Blake & Gent, JAIR 2026; github.com/thecharlesblake/Solvitaire, GPL) is the solver whose
published figures docs/results.md measures against. It is not a dependency: build it yourself and pass
the binary (a plain ``g++ -O2 -std=c++14 -Ilib -Ilib/rapidjson src/main/**/*.cpp -lboost_program_options``
of its sources does). Each deal of ``--seed`` is dealt by the design, written as a Solvitaire deal file
(:func:`solvitaire_deal`) and solved by both: ours with ``--seconds`` and ``--budget`` per deal on one
core, Solvitaire's preset of the same game with the same seconds (its ``--timeout``). The table gives
both answers per deal; the summary counts the deals each decides, the deals only one decides, and any
*conflict* (one says won, the other lost), which would mean a wrong verdict or rules that differ.

What it tells: whether the deals we leave open are hard for the reference solver too (then the budget,
not our search, is short), and which deals it decides that we do not (where to look next).

The deal file lists each pile bottom card first, a face-down card in lower case; the stock's last card is
its top, as in the engine. The piles map by depot type: the columns to ``tableau piles``, the cells to
``cells``, the reserves to ``reserve`` (one stacked pile, or one card per reserve depot), the cards dealt to
the foundations to ``foundations``. Designs whose rules differ from every preset are left out of
:data:`PRESETS`, and so are those that deal cards to their cells (Seahaven Towers, Eight Off: Solvitaire
fills their cells itself); the Klondikes map to the ``-arbitrary-built-moves`` presets, whose columns move any
face-up run as ours do (Solvitaire's plain ``klondike`` moves part of a run only when the card it
uncovers goes to a foundation).

A grid game (Gaps: one card per cell, in rows) is written as Solvitaire's ``sequences`` instead
(:func:`sequences_deal`): one list per row, left to right, a gap as ``AS`` (its gap placeholder), the Aces
the deal takes out left out.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.solve import solve_deal  # noqa: E402
from cardz_tools.analysis.tableau_search import SearchResult  # noqa: E402
from cardz_tools.cards import card_str, is_face_up  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"

PRESETS = {
    "klondike": "klondike-arbitrary-built-moves",
    "klondike-draw-one": "klondike-deal-1-arbitrary-built-moves",
    "trigon": "trigon",
    "canfield-strict": "canfield-strict",
    "canfield-auto-reserve-then-waste": "canfield-auto-reserve-then-waste",
    "canfield-runs": "canfield-arbitrary-built-moves",
    "klondike-reserve": "klondike-reserve",
    "klondike-two-deck-9": "klondike-two-deck-9",
    "ultra-klondike-2-deck": "ultra-klondike-2-deck",
    "gargantua-redeal": "gargantua-redeal",
    "east-haven": "east-haven",
    "rank-and-file": "rank-and-file",
    "limited": "limited",
    "lucas": "lucas",
    "fortunes-favor": "fortunes-favor",
    "thirty-six": "thirtysix",
    "freecell": "free-cell",
    "bakers-game": "bakers-game",
    "beleaguered-castle": "beleaguered-castle",
    "streets-and-alleys": "streets-and-alleys",
    "king-albert": "king-albert",
    "flower-garden": "flower-garden",
    "forty-thieves": "forty-thieves",
    "maria": "maria",
    "streets": "streets",
    "alina": "alina",
    "duchess": "duchess",
    "chameleon": "chameleon",
    "northwest-territory": "northwest-territory-arbitrary-built-moves",
    "american-toad": "american-toad",
    "gargantua": "gargantua",
    "gaps-no-redeal": "gaps-one-deal",
    "gaps-basic": "gaps-basic-variant",
}
"""Design stem -> the Solvitaire preset of the same rules."""

_KINDS = {"Tableau": "tableau piles", "Cell": "cells", "Reserve": "reserve", "Foundation": "foundations",
          "Stock": "stock", "Waste": "waste"}


def _card(card: int, keep_face: bool) -> str:
    text = card_str(card).upper()
    return text if not keep_face or is_face_up(card) else text.lower()


def solvitaire_deal(game: Any, state: Any) -> dict[str, Any]:
    """``state``'s piles as a Solvitaire deal file (module doc)."""
    piles: dict[str, list[list[str]]] = {}
    for depot, pile in zip(game.design.depots, state.piles, strict=True):
        kind = _KINDS.get(depot.spec.type.value)
        if kind is None:
            raise ValueError(f"no Solvitaire pile for a {depot.spec.type.value} depot ({depot.spec.name})")
        piles.setdefault(kind, []).append([_card(card, kind == "tableau piles") for card in pile])
    deal: dict[str, Any] = {}
    for kind, lists in piles.items():
        if kind == "tableau piles":
            deal[kind] = lists
        elif kind == "reserve" and len(lists) == 1:
            deal[kind] = lists[0]
        elif any(lists):
            deal[kind] = [card for cards in lists for card in cards]
    return deal


def sequences_deal(game: Any, state: Any) -> dict[str, Any]:
    """``state``'s grid (its one-card columns, by grid row and column) as Solvitaire's ``sequences`` (module doc)."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for depot, pile in zip(game.design.depots, state.piles, strict=True):
        if depot.spec.type.value != "Tableau":
            continue
        if len(pile) > 1:
            raise ValueError(f"{depot.name} holds {len(pile)} cards: not a grid of one card per cell")
        text = _card(pile[0], False) if pile else "AS"
        if pile and text.startswith("A"):
            raise ValueError(f"{depot.name} holds an Ace, which Solvitaire's sequences read as a gap")
        rows.setdefault(depot.grid_row, []).append((depot.grid_col, text))
    return {"sequences": [[card for _, card in sorted(cells)] for _, cells in sorted(rows.items())]}


def deal_for(game: Any, state: Any, preset: str) -> dict[str, Any]:
    """``state`` as a deal file of ``preset``: sequences for the grid presets, piles by depot type otherwise."""
    return sequences_deal(game, state) if preset.startswith("gaps") else solvitaire_deal(game, state)


def _rules(binary: str, preset: str) -> dict[str, Any]:
    """The preset's rules (``--describe-game-rules``) over Solvitaire's defaults."""
    def described(name: str) -> dict[str, Any]:
        text = subprocess.run([binary, "--describe-game-rules", name], capture_output=True, text=True).stdout
        return json.loads(text[text.index("{"):text.rindex("}") + 1])
    rules = described("default")
    for key, value in described(preset).items():
        rules[key] = {**rules[key], **value} if isinstance(value, dict) else value
    return rules


def layout_problems(game: Any, deal: dict[str, Any], rules: dict[str, Any]) -> list[str]:
    """Where ``deal`` (of ``game``) does not fit the piles of a preset's ``rules``: Solvitaire reads a deal
    that does not fit without a word, so a wrong entry of :data:`PRESETS` would otherwise pass unseen."""
    cells = sum(depot.spec.type.value == "Cell" for depot in game.design.depots)
    counts = {
        "tableau piles": (len(deal.get("tableau piles", [])), rules["tableau piles"]["count"]),
        "stock": (len(deal.get("stock", [])), rules["stock"]["size"]),
        "reserve": (len(deal.get("reserve", [])), rules["reserve"]["size"]),
        "cells": (cells, rules["cells"]["count"]),
        "two decks": (game.design.deck_size > 52, rules["two decks"]),
        "sequences": (len(deal.get("sequences", [])), rules.get("sequences", {}).get("count", 0)),
    }
    return [f"{key}: ours {ours}, Solvitaire's {theirs}" for key, (ours, theirs) in counts.items() if ours != theirs]


def run_solvitaire(binary: str, preset: str, deal: dict[str, Any], seconds: float) -> tuple[str, float]:
    """Solvitaire's answer for ``deal`` ("won", "lost" or "unknown") and its wall seconds."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(deal, file)
    started = time.monotonic()
    try:
        done = subprocess.run(
            [binary, "--type", preset, "--classify", "--timeout", str(int(seconds * 1000)), file.name],
            capture_output=True, text=True, timeout=seconds + 5,
        )
        if "[error]" in done.stdout + done.stderr:
            raise RuntimeError(f"Solvitaire ({preset}): {(done.stdout + done.stderr).strip().splitlines()[-1]}")
        lines = [line for line in done.stdout.splitlines() if line.startswith(", ")]
    except subprocess.TimeoutExpired:
        lines = []
    finally:
        pathlib.Path(file.name).unlink()
    answer = lines[-1].split(",")[1].strip() if lines else ""
    return {"solved": "won", "unsolvable": "lost"}.get(answer, "unknown"), time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvitaire", help="the Solvitaire binary")
    parser.add_argument("--games", default="klondike,canfield-runs")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--budget", type=int, default=2_000_000)
    parser.add_argument("--theirs-only", action="store_true", help="run Solvitaire alone (ours: see docs/results.md)")
    parser.add_argument("--export-only", type=pathlib.Path, help="write the deal files here; solve nothing")
    args = parser.parse_args()
    if args.solvitaire is None and args.export_only is None:
        parser.error("give --solvitaire PATH (or --export-only DIR)")
    for name in args.games.split(","):
        if name not in PRESETS:
            parser.error(f"no Solvitaire preset known for {name!r}; known: {', '.join(sorted(PRESETS))}")
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        first = game.new_initial_state(seed=deal_seed(args.seed, args.first))
        problems = [] if args.solvitaire is None else layout_problems(
            game, deal_for(game, first, PRESETS[name]), _rules(args.solvitaire, PRESETS[name]))
        if problems:
            print(f"{name}: the deal does not fit {PRESETS[name]}: {'; '.join(problems)}")
            continue
        tally = {"ours": 0, "theirs": 0, "only ours": 0, "only theirs": 0, "conflicts": 0}
        print(f"{name} ({PRESETS[name]}): deals {args.first}-{args.first + args.deals - 1} of seed {args.seed}, "
              f"{args.seconds:g} s each")
        for index in range(args.first, args.first + args.deals):
            root = game.new_initial_state(seed=deal_seed(args.seed, index))
            deal = deal_for(game, root, PRESETS[name])
            if args.export_only is not None:
                args.export_only.mkdir(parents=True, exist_ok=True)
                (args.export_only / f"{name}-{args.seed}-{index}.json").write_text(json.dumps(deal))
                continue
            started = time.monotonic()
            ours = SearchResult("unknown", [], 0, None) if args.theirs_only else solve_deal(
                root, args.budget, started + args.seconds)
            our_seconds = time.monotonic() - started
            theirs, their_seconds = run_solvitaire(args.solvitaire, PRESETS[name], deal, args.seconds)
            decided = ours.result != "unknown", theirs != "unknown"
            tally["ours"] += decided[0]
            tally["theirs"] += decided[1]
            tally["only ours"] += decided[0] and not decided[1]
            tally["only theirs"] += decided[1] and not decided[0]
            conflict = all(decided) and ours.result != theirs
            tally["conflicts"] += conflict
            mine = "" if args.theirs_only else f"ours {ours.result:7} ({ours.nodes:,} positions, {our_seconds:.1f} s), "
            flag = "  CONFLICT" if conflict else ""
            print(f"  deal {index:3}: {mine}Solvitaire {theirs:7} ({their_seconds:.1f} s){flag}", flush=True)
        if args.export_only is None:
            print("  decided: " + ", ".join(f"{key} {value}" for key, value in tally.items()))


if __name__ == "__main__":
    main()
