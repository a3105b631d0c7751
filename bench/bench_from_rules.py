"""How closely the designs made from the rules-text corpus play their pairs, on more deals than the tests use.

For every text of ``tests/examples/rules/corpus`` and ``held-out`` (or those named on the
command line): convert it, compare the design with its pair by play (``--deals`` deals of
``--moves`` random moves each) and by the solver's verdicts on the first ``--solve`` deals
(``--budget`` positions per deal and design), and print one line per text: the positions
whose legal moves were compared, the deals that differed, and how many solver verdicts both
designs decided and agreed on. The last line totals them.

    python -m bench.bench_from_rules --deals 20 --solve 20 --budget 20000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cardz_tools.authoring.compare import compare_designs
from cardz_tools.authoring.rules_text import convert
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "tests/examples/rules/corpus", ROOT / "tests/examples/rules/held-out")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only the texts whose file name contains one of these")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--solve", type=int, default=20)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=120.0, help="time limit per text")
    args = parser.parse_args()
    totals = {"texts": 0, "same": 0, "steps": 0, "decided": 0, "agreeing": 0}
    for folder in FOLDERS:
        pairs: dict[str, str] = json.loads((folder / "pairs.json").read_text(encoding="utf-8"))
        for text, reference in pairs.items():
            if args.names and not any(name in text for name in args.names):
                continue
            start = time.perf_counter()
            conversion = convert((folder / text).read_text(encoding="utf-8"), text)
            comparison = compare_designs(
                build_design(conversion.design),
                open_design(ROOT / reference).design,
                deals=args.deals,
                moves=args.moves,
                solve_deals=args.solve,
                budget=args.budget,
                seconds=args.seconds,
            )
            decided = [v for v in comparison.verdicts if v.decided]
            agreeing = sum(1 for v in decided if v.candidate == v.reference)
            totals["texts"] += 1
            totals["same"] += comparison.same
            totals["steps"] += comparison.steps
            totals["decided"] += len(decided)
            totals["agreeing"] += agreeing
            differing = len({d.deal for d in comparison.differences})
            print(
                f"{folder.name}/{text}: {'same' if comparison.same else 'DIFFERENT'}; {comparison.deals} deals, "
                f"{comparison.steps} positions compared, {differing} deals differ; solver {agreeing}/{len(decided)} "
                f"decided deals agree ({len(comparison.verdicts)} tried); {time.perf_counter() - start:.1f} s",
                flush=True,
            )
    print(
        f"total: {totals['same']}/{totals['texts']} texts play the same game; {totals['steps']} positions compared; "
        f"solver verdicts agree on {totals['agreeing']}/{totals['decided']} deals both designs decided"
    )


if __name__ == "__main__":
    main()
