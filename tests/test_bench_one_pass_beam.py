"""bench/bench_one_pass_beam.py: the one-pass beam alone, its tries' positions adding up to what it stored."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.engine_support import random_positions
from tests.test_two_deck import small_forty_thieves

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_one_pass_beam import beam_alone  # noqa: E402


def test_the_beam_alone_reports_its_tries_and_never_a_loss() -> None:
    """Each try's positions add up to the positions stored, the answer is a win or "unknown" (never "lost",
    never a line the engine refuses: ``beam_alone`` replays it), and a narrow beam on a small budget needs more
    than one try somewhere."""
    game = small_forty_thieves()
    many = 0
    for root in random_positions(game, 20, 9, 12):
        result, positions, tries = beam_alone(root, 2_000, (20,), 1)
        assert result in ("won", "unknown")
        assert sum(stored for stored, _ in tries) == positions
        many += len(tries) > 1
    assert many >= 1
