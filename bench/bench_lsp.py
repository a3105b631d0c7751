"""Does any language-server request block typing for more than 50 ms? Time every handler.

Run from the repository root: ``python bench/bench_lsp.py [--repeat N] [--depots N]``.
Each handler is called as the server calls it (from the document's text, with the
position a user would have), in this process, ``--repeat`` times on each design: the
two seeds and a generated large design (``--depots`` depots, each with an accept rule,
an eject rule and a trigger: three expressions a depot). Linting is timed too: the
server runs it on the request loop after every pause in typing. The table shows the
median and the slowest call in milliseconds; the exit status is 1 when a slowest call
is over the budget. Timings are wall clock on a shared machine: rerun before
believing a single slow call.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_tools import jsoncst  # noqa: E402
from cardz_tools.lsp.actions import quick_fixes  # noqa: E402
from cardz_tools.lsp.completion import complete  # noqa: E402
from cardz_tools.lsp.definition import definition  # noqa: E402
from cardz_tools.lsp.document import Snapshot, design_context, lint_document  # noqa: E402
from cardz_tools.lsp.formatting import format_document, format_range  # noqa: E402
from cardz_tools.lsp.hover import hover  # noqa: E402
from cardz_tools.lsp.outline import folding_ranges, outline  # noqa: E402
from cardz_tools.lsp.positions import TextIndex  # noqa: E402
from cardz_tools.lsp.rename import prepare_rename, references, rename  # noqa: E402
from cardz_tools.lsp.tokens import encode, semantic_tokens  # noqa: E402
from cardz_tools.source import SourceFile  # noqa: E402

BUDGET_MS = 50.0
SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]


def large_design(depots: int) -> str:
    """A design with ``depots`` tableau piles that each hold three rule expressions, in the canonical layout."""
    piles: list[dict[str, Any]] = []
    for i in range(depots):
        following = f"t{(i + 1) % depots}"
        piles.append({
            "type": "Tableau", "col": i % 12, "row": 1 + i // 12, "name": f"t{i}",
            "acceptRule": {"when": f"empty(depot) || (top.rank == card.rank + 1 && top.color != card.color"
                                   f" && count({following}) >= 0)", "reason": "Down in alternate colours"},
            "ejectRule": {"when": "all(c in cards, c.faceUp)"},
            "triggers": [{"when": f"count(depot) > 12 && !empty({following})",
                          "do": [{"kind": "move", "from": "@self", "to": "found", "count": "1"}]}],
        })
    design = {
        "name": "Large", "decks": 3,
        "depots": [{"type": "Stock", "col": 0, "row": 0, "name": "stock", "acceptRule": "none"},
                   {"type": "Foundation", "col": 2, "row": 0, "name": "found", "acceptRule": {"when": "true"}},
                   *piles],
        "dealRules": [{"kind": "dealGroup", "to": "Tableau", "faceUp": 1}],
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
        "scoring": {"value": "count(found)"},
    }
    from cardz_tools.fmt import format_text

    return format_text(json.dumps(design))


def handlers(text: str, path: Path) -> dict[str, Callable[[], object]]:
    """Every request as the server answers it, at a position inside a rule expression where one is needed."""
    snapshot = Snapshot.of(text, path)
    index = snapshot.index
    assert snapshot.context is not None and snapshot.context.sites, "the design does not model"
    root = jsoncst.parse(text)
    first_rule = jsoncst.node_at(root, next(iter(snapshot.context.sites)))
    first_name = jsoncst.node_at(root, "/depots/0/name")
    assert first_rule is not None and first_name is not None
    rule = first_rule.start + 4
    at_rule = index.position(rule)
    at_name = index.position(first_name.start + 2)
    typo = text.replace("card.rank", "card.rnak", 1)
    found = [d for d in lint_document(typo, path) if d.code == "CZ402"]
    typo_index = TextIndex(typo)

    def code_action() -> object:
        return [quick_fixes(typo, typo_index.offset(d.range.start), typo_index.offset(d.range.end), d.code, d.message)
                for d in found]

    def code_lens() -> object:
        source = SourceFile.from_text(text, "lens.cardz")
        return TextIndex(text).span_range(source.span("/name"))

    return {
        "lint (didChange)": lambda: lint_document(text, path),
        "design context": lambda: design_context(text, path),
        "hover": lambda: hover(snapshot, at_rule),
        "completion": lambda: complete(snapshot, at_rule),
        "definition": lambda: definition(snapshot, at_name),
        "codeAction": code_action,
        "formatting": lambda: format_document(text),
        "rangeFormatting": lambda: format_range(text, rule, rule + 2),
        "documentSymbol": lambda: outline(text, index),
        "foldingRange": lambda: folding_ranges(text),
        "references": lambda: references(Snapshot.of(text, path), at_name),
        "prepareRename": lambda: prepare_rename(Snapshot.of(text, path), at_name),
        "rename": lambda: rename(Snapshot.of(text, path), at_name, "renamed_depot"),
        "semanticTokens": lambda: encode(semantic_tokens(text, Snapshot.of(text, path).context), index),
        "codeLens": code_lens,
    }


def measure(call: Callable[[], object], repeat: int) -> list[float]:
    call()  # warm caches as a running server has them
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - started))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--depots", type=int, default=120)
    args = parser.parse_args()
    designs = [(path.stem, path.read_text(encoding="utf-8"), path) for path in SEEDS]
    large = large_design(args.depots)
    designs.append((f"large ({args.depots} depots, {len(large) // 1000} KB)", large, ROOT / "games" / "large.cardz"))
    worst = 0.0
    slow: list[str] = []
    for label, text, path in designs:
        print(f"\n{label}")
        print(f"  {'request':<18} {'median ms':>9} {'max ms':>8}")
        for request, call in handlers(text, path).items():
            times = measure(call, args.repeat)
            print(f"  {request:<18} {statistics.median(times):9.1f} {max(times):8.1f}")
            worst = max(worst, max(times))
            if max(times) > BUDGET_MS:
                slow.append(f"{label}: {request} {max(times):.0f} ms")
    print(f"\nslowest call {worst:.1f} ms; budget {BUDGET_MS:.0f} ms")
    for line in slow:
        print(f"  over budget: {line}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
