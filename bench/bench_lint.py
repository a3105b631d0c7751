"""Time ``lint_paths`` on 1,000 generated designs against plain JSON Schema validation of the same files.

Run from the repository root: ``python bench/bench_lint.py [--count N]``. Both timings
include reading and parsing the files; the ratio says what positions, semantic checks
and the rest of the pipeline cost on the common (clean) path.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_tools.lint import lint_paths  # noqa: E402
from cardz_tools.schema import packaged_checker  # noqa: E402

SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]


def variation(seed: dict[str, Any], index: int) -> dict[str, Any]:
    """A valid variation of a seed: another name and description, the board shifted right."""
    design = json.loads(json.dumps(seed))
    design["name"] = f"{seed['name']} #{index}"
    design["description"] = f"{seed.get('description', '')}\n\nVariation {index}."
    shift = (index % 7) * 0.5
    for depot in design["depots"]:
        depot["col"] = depot.get("col", 0) + shift
    return design


def generate(directory: Path, count: int) -> list[Path]:
    seeds = [json.loads(path.read_text(encoding="utf-8")) for path in SEEDS]
    paths = []
    for index in range(count):
        path = directory / f"design-{index:04d}.cardz"
        path.write_text(json.dumps(variation(seeds[index % len(seeds)], index), indent=2), encoding="utf-8")
        paths.append(path)
    return paths


def plain_jsonschema(paths: list[Path], schema: dict[str, Any]) -> int:
    validator = Draft202012Validator(schema)
    errors = 0
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        errors += sum(1 for _ in validator.iter_errors(data))
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs of each (the machine is shared)")
    args = parser.parse_args()
    checker = packaged_checker()
    with tempfile.TemporaryDirectory() as tmp:
        paths = generate(Path(tmp), args.count)
        plain_jsonschema(paths[:10], dict(checker.schema))  # warm up both paths
        lint_paths(paths[:10])

        plain = lint = float("inf")
        for _ in range(args.repeat):  # alternate, so that both see the same machine load
            start = time.perf_counter()
            schema_errors = plain_jsonschema(paths, dict(checker.schema))
            plain = min(plain, time.perf_counter() - start)
            start = time.perf_counter()
            result = lint_paths(paths)
            lint = min(lint, time.perf_counter() - start)

    print(f"files:             {len(paths)}")
    print(f"plain jsonschema:  {plain:.3f} s (best of {args.repeat})  ({schema_errors} errors)")
    print(f"cardz lint_paths:  {lint:.3f} s (best of {args.repeat})  ({len(result.diagnostics)} diagnostics)")
    print(f"ratio lint/plain:  {lint / plain:.2f}x")


if __name__ == "__main__":
    main()
