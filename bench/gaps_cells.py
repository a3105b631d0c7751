"""The grid cells of Gaps (no redeal) deals, one line a deal: the deal's index, then 52 card identities row by row
(suit * 16 + rank, 0 for a gap), the input of ``bench/gaps_streamlined.c``.

    python bench/gaps_cells.py SEED DEALS
"""

from __future__ import annotations

import pathlib
import sys

from cardz_tools.analysis.grid_search import GridSearch
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.runner import game_for
from cardz_tools.loading import open_design

HERE = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    seed, deals = int(sys.argv[1]), int(sys.argv[2])
    game = game_for(open_design(HERE / "games" / "gaps-no-redeal.cardz").json_text)
    for deal in range(deals):
        search = GridSearch.of(game.new_initial_state(seed=deal_seed(seed, deal)))
        assert search is not None
        print(deal, " ".join(str(code) for code in search.pack(search.state.piles)))


if __name__ == "__main__":
    main()
