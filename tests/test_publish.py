"""``cardz publish``: pages, downloads, catalog, determinism, refusals, atomicity, and a real browser."""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shutil
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardz_tools import cli
from cardz_tools.analysis.check import CheckOptions
from cardz_tools.analysis.findings import FindingKind
from cardz_tools.diagnostics import Severity
from cardz_tools.lint import collect_files, lint_paths
from cardz_tools.model import build_design
from cardz_tools.publish import GateError, PublishError, parse_gate, publish
from cardz_tools.publish import output as publish_output
from cardz_tools.publish.facts import Difficulty, board_summary, decks_phrase, difficulty, slugify, tagline
from cardz_tools.variants import flatten_file
from tests.browser_support import dump_dom, needs_chromium

from .conftest import ROOT

SAMPLE = (
    "accordion", "black-hole", "canfield", "chateau-de-cartes", "freecell", "gaps-no-redeal", "golf",
    "golf-queen-on-king", "golf-wrap", "klondike", "montana", "monte-carlo", "pyramid", "spider-one-suit",
    "weathervane", "weathervane-6",
)
"""The designs published here: every family of board, and variants with their bases. Publishing the whole
catalog of games/ (70 designs) takes minutes per publication, and these tests publish about ten times."""


def _sample_of_the_catalog() -> Path:
    """A folder holding a copy of the SAMPLE designs of games/, removed when the tests end."""
    folder = Path(tempfile.mkdtemp(prefix="cardz-publish-games-")) / "games"
    folder.mkdir()
    for name in SAMPLE:
        shutil.copy(ROOT / "games" / f"{name}.cardz", folder / f"{name}.cardz")
    atexit.register(shutil.rmtree, folder.parent, True)
    return folder


GAMES = _sample_of_the_catalog()
SMALL = CheckOptions(playouts=100, deals=3, budget=2000, seed=0, workers=1)
# Fixed counts (no time budget): the same bytes on any machine.
SMALL_ARGS = ["--playouts", "100", "--deals", "3", "--budget", "2000", "--seconds", "0"]
CATALOG_KEYS = {
    "name", "slug", "family", "aliases", "file", "sha256", "bytes", "lines",
    "win_rate", "win_rate_interval", "winnability", "winnability_interval", "deals",
}

runner = CliRunner()

STUCK = """{
  "name": "Stuck",
  "description": "**Goal:** nothing can move.",
  "depots": [
    { "type": "Stock", "col": 0, "row": 0, "name": "stock", "acceptRule": "none", "ejectRule": "locked" },
    { "type": "Foundation", "col": 1, "row": 0, "name": "home", "acceptRule": "none", "ejectRule": "locked" }
  ],
  "winCondition": { "kind": "allCardsIn", "depots": "Foundation" }
}
"""


def designs() -> dict[str, Path]:
    """The shipped designs by the slug of their (flattened) name."""
    return {slugify(flatten_file(path).design["name"]): path for path in collect_files([GAMES])}


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` with its bytes and modification time."""
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def leftovers(parent: Path) -> list[str]:
    """Temporary folders publish would leave next to its output."""
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "out"
    result = publish([GAMES], out, options=SMALL)
    assert result.exit_code == 0 and result.refused is None
    return out


# ---------------------------------------------------------------- what is written


def test_every_game_has_a_page_with_its_board_and_a_download_that_exists(published: Path) -> None:
    shipped = designs()
    assert len(shipped) == len(collect_files([GAMES])) >= 3
    for slug, path in shipped.items():
        page = (published / f"{slug}.html").read_text(encoding="utf-8")
        design = build_design(flatten_file(path).design)
        board = page[page.index('<figure class="board">') : page.index("</figure>")]
        assert "<svg" in board
        assert board.count('class="cz-pile"') == len(design.depots)
        links = re.findall(r'<a [^>]*href="([^"]+)"[^>]*\bdownload="([^"]+)"', page)
        assert (f"{slug}.cardz", f"{slug}.cardz") in links
        assert (published / f"{slug}.cardz").is_file()
        assert f"<h1>{design.name}</h1>" in page
        assert board_summary(design) in page
        lines = (published / f"{slug}.cardz").read_text(encoding="utf-8").count("\n")
        assert f"{lines} lines" in page


def test_pages_show_the_facts_of_the_seed_pages(published: Path) -> None:
    page = (published / "monte-carlo.html").read_text(encoding="utf-8")
    assert "25 tableaus, 1 stock, 1 foundation" in page and "One deck" in page
    assert "35 lines" in page and "Weddings" in page and "Pair off all 52 cards." in page
    assert "<strong>Goal:</strong> pair off all 52 cards." in page
    assert "1 stock, 1 waste, 1 foundation, 7 tableaus" in (published / "weathervane.html").read_text(encoding="utf-8")


def test_downloads_are_the_flattened_designs_in_the_canonical_layout_and_lint_clean(published: Path) -> None:
    for slug, path in designs().items():
        text = (published / f"{slug}.cardz").read_text(encoding="utf-8")
        assert text == flatten_file(path).text()
        assert "extends" not in json.loads(text)
    assert (published / "monte-carlo.cardz").read_bytes() == (GAMES / "monte-carlo.cardz").read_bytes()
    linted = lint_paths([published])
    assert len(linted.files) == len(designs())
    assert linted.errors == 0, [d.message for d in linted.diagnostics]


def test_catalog_lists_every_game_sorted_with_true_hashes_sizes_and_lines(published: Path) -> None:
    catalog = json.loads((published / "catalog.json").read_text(encoding="utf-8"))
    assert [entry["slug"] for entry in catalog] == sorted(designs())
    for entry in catalog:
        assert CATALOG_KEYS <= entry.keys()
        data = (published / entry["file"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["bytes"] == len(data)
        assert entry["lines"] == len(data.decode("utf-8").splitlines())
        design = build_design(json.loads(data))
        assert (entry["name"], entry["family"], entry["aliases"]) == (design.name, design.family, list(design.aliases))
        assert entry["deals"] == SMALL.deals and entry["playouts"] == SMALL.playouts
        low, high = entry["win_rate_interval"]
        assert 0 <= low <= entry["win_rate"] <= high <= 1
        assert entry["difficulty"] in {d.value for d in Difficulty}
    files = {p.name for p in published.iterdir()}
    assert files == {"index.html", "catalog.json"} | {e["file"] for e in catalog} | {e["page"] for e in catalog}


def test_index_lists_every_game_with_its_family_tagline_difficulty_and_links(published: Path) -> None:
    index = (published / "index.html").read_text(encoding="utf-8")
    catalog = json.loads((published / "catalog.json").read_text(encoding="utf-8"))
    for entry in catalog:
        item = re.search(rf'<li class="game" data-slug="{entry["slug"]}">(.*?)</li>', index, re.S)
        assert item is not None
        body = item.group(1)
        assert f'href="{entry["page"]}"' in body and f'download="{entry["file"]}"' in body
        assert entry["name"] in body and entry["family"] in body and entry["tagline"] in body
        assert entry["difficulty"] in body


class _Nesting(HTMLParser):
    """Checks that every element is closed in order (void elements aside)."""

    VOID = {"meta", "link", "br", "hr", "img", "input", "source", "wbr", "col", "area", "base", "embed", "track"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def test_pages_are_self_contained_well_formed_html5(published: Path) -> None:
    for page in sorted(published.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        parser = _Nesting()
        parser.feed(text)
        parser.close()
        assert parser.doctype == "DOCTYPE html" and not parser.problems and not parser.stack, page.name
        assert '<meta charset="utf-8">' in text and "<style>" in text
        assert "<link" not in text and "<script src" not in text
        # The only scripts: the replay's data (inert JSON) and the replay script itself, which loads nothing.
        scripts = re.findall(r"<script[^>]*>", text)
        assert set(scripts) <= {'<script type="application/json" class="cz-replay-data">', "<script>"}, page.name
        assert text.count("<script>") <= 1 and (text.count("<script>") == 1) == ('class="cz-replay"' in text)
        assert not re.search(r'(src|href)="(https?:|//|/)', text), page.name
        assert "/work/" not in text and str(published) not in text


def test_designer_strings_are_escaped(tmp_path: Path) -> None:
    source = json.loads((GAMES / "monte-carlo.cardz").read_text(encoding="utf-8"))
    source["name"] = 'Evil <script>alert(1)</script> & "Co"'
    source["aliases"] = ["<b>bold</b>"]
    source["description"] = '**Goal:** <img src=x onerror="alert(2)">\n\n- a <i>bullet</i>'
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "evil.cardz").write_text(json.dumps(source, indent=2), encoding="utf-8")
    out = tmp_path / "out"
    assert publish([tmp_path / "in"], out, options=SMALL).exit_code == 0
    slug = slugify(source["name"])
    assert slug == "evil-script-alert-1-script-co"
    for page in (out / f"{slug}.html", out / "index.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text and "<b>bold" not in text and "<i>" not in text
        scripts = {'<script type="application/json" class="cz-replay-data">', "<script>"}
        assert set(re.findall(r"<script[^>]*>", text)) <= scripts
        assert "Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;" in text


# ---------------------------------------------------------------- determinism and the output folder


def test_publishing_twice_gives_the_same_bytes(published: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert publish([GAMES], again, options=SMALL).exit_code == 0
    assert {k: v[0] for k, v in snapshot(again).items()} == {k: v[0] for k, v in snapshot(published).items()}
    # ... and over its own previous output, through the command line, from another working directory
    result = runner.invoke(cli.app, ["publish", str(GAMES), "--out", str(again), *SMALL_ARGS])
    assert result.exit_code == 0, result.output
    assert {k: v[0] for k, v in snapshot(again).items()} == {k: v[0] for k, v in snapshot(published).items()}
    assert leftovers(tmp_path) == []


def test_a_publication_inside_the_designs_folder_is_not_published_again(tmp_path: Path) -> None:
    # a few designs, one a variant (its flattened download is the .cardz the second run must not take up)
    (tmp_path / "games").mkdir()
    for name in ("golf.cardz", "golf-queen-on-king.cardz", "klondike.cardz"):
        shutil.copy(GAMES / name, tmp_path / "games" / name)
    out = tmp_path / "games" / "site"
    assert publish([tmp_path / "games"], out, options=SMALL).exit_code == 0
    first = snapshot(out)
    assert publish([tmp_path / "games"], out, options=SMALL).exit_code == 0
    assert {k: v[0] for k, v in snapshot(out).items()} == {k: v[0] for k, v in first.items()}


def test_a_design_with_an_error_refuses_everything_and_leaves_the_folder_as_it_was(
    published: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    shutil.copytree(published, out)
    before = snapshot(out)
    designs_dir = tmp_path / "designs"
    shutil.copytree(GAMES, designs_dir)
    (designs_dir / "broken.cardz").write_text('{ "name": "Broken", "depots": [] }\n', encoding="utf-8")
    result = runner.invoke(cli.app, ["publish", str(designs_dir), "--out", str(out), *SMALL_ARGS])
    assert result.exit_code == 1
    assert "broken.cardz" in result.stderr and "error[CZ2" in result.stderr and "unchanged" in result.stderr
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []


def test_a_gated_finding_refuses_the_publication(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "stuck.cardz").write_text(STUCK, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(
        cli.app, ["publish", str(tmp_path / "in"), "--out", str(out), "--gate", "unwinnable,stuck-at-deal", *SMALL_ARGS]
    )
    assert result.exit_code == 1
    assert "error[CZ501]" in result.stderr and "stuck.cardz" in result.stderr
    assert not out.exists() and leftovers(tmp_path) == []
    # Without the gate the same design is published: the gate is what refused it.
    result = runner.invoke(cli.app, ["publish", str(tmp_path / "in"), "--out", str(out), *SMALL_ARGS])
    assert result.exit_code == 0, result.output
    assert (out / "stuck.html").is_file()


def test_a_gate_that_names_no_finding_kind_is_a_usage_error_with_a_suggestion(tmp_path: Path) -> None:
    result = runner.invoke(cli.app, ["publish", str(GAMES), "--out", str(tmp_path / "out"), "--gate", "stuck-at-dael"])
    assert result.exit_code == 2
    assert "did you mean 'stuck-at-deal'?" in result.stderr
    assert parse_gate(["never-won, unwinnable", "skill-gap"]) == {
        FindingKind.NEVER_WON,
        FindingKind.UNWINNABLE,
        FindingKind.SKILL_GAP,
    }
    with pytest.raises(GateError):
        parse_gate(["stuck"])
    assert not (tmp_path / "out").exists()


def test_two_designs_with_one_slug_are_refused(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(GAMES / "monte-carlo.cardz", tmp_path / "in" / "a.cardz")
    text = (GAMES / "monte-carlo.cardz").read_text(encoding="utf-8").replace('"Monte Carlo"', '"Monte  carlo!"')
    (tmp_path / "in" / "b.cardz").write_text(text, encoding="utf-8")
    result = publish([tmp_path / "in"], tmp_path / "out", options=SMALL)
    assert result.refused is not None and result.exit_code == 1
    assert {d.code for d in result.refused.diagnostics} == {"CZ660"}
    assert all(d.severity is Severity.ERROR for d in result.refused.diagnostics)
    assert not (tmp_path / "out").exists()


def test_a_folder_publish_did_not_write_is_refused(published: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "docs"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(cli.app, ["publish", str(GAMES), "--out", str(foreign), *SMALL_ARGS])
    assert result.exit_code == 2 and "not written by cardz publish" in result.stderr
    assert snapshot(foreign) == {"notes.txt": snapshot(foreign)["notes.txt"]}
    # A previous publication with a file added by hand is refused too: publish never deletes what it did not write.
    site = tmp_path / "site"
    shutil.copytree(published, site)
    (site / "CNAME").write_text("games.example\n", encoding="utf-8")
    before = snapshot(site)
    with pytest.raises(PublishError, match="CNAME"):
        publish([GAMES], site, options=SMALL)
    assert snapshot(site) == before


def test_an_interrupted_publication_leaves_no_trace(
    published: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    shutil.copytree(published, out)
    before = snapshot(out)
    real_write = publish_output.write_files

    def interrupted(folder: Path, files: dict[str, bytes]) -> None:
        real_write(folder, dict(list(sorted(files.items()))[:2]))
        raise KeyboardInterrupt

    monkeypatch.setattr(publish_output, "write_files", interrupted)
    with pytest.raises(KeyboardInterrupt):
        publish([GAMES], out, options=SMALL)
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- facts


def test_slugs_are_lowercase_ascii_words_joined_by_hyphens() -> None:
    assert slugify("Weathervane (six hidden)") == "weathervane-six-hidden"
    assert slugify("  Reine Élise: l'Œuvre ") == "reine-elise-l-oeuvre"
    assert slugify("♠♥") == ""


def test_board_summary_counts_depot_types_in_order_of_appearance() -> None:
    data = json.loads(STUCK)
    data["depots"].append({"type": "Tableau", "col": 0, "row": 1, "name": "t", "repeat": 2})
    data["depots"].append({"type": "Foundation", "col": 3, "row": 0, "name": "h2", "acceptRule": "none"})
    design = build_design(data)
    assert board_summary(design) == "1 stock, 2 foundations, 2 tableaus"
    assert decks_phrase(design) == "One deck"
    data["decks"], data["jokers"] = 2, 1
    assert decks_phrase(build_design(data)) == "Two decks and one joker"


def test_tagline_is_the_designs_own_or_its_goal_line() -> None:
    data = json.loads(STUCK)
    assert tagline(build_design(data)) == "Nothing can move."
    data["tagline"] = "Sit and wait"
    assert tagline(build_design(data)) == "Sit and wait"
    data.pop("tagline")
    data["description"] = "- just a bullet"
    assert tagline(build_design(data)) == ""


@pytest.mark.parametrize(
    "won, lost, unknown, word",
    [
        (8, 2, 0, Difficulty.EASY),
        (3, 1, 0, Difficulty.EASY),
        (5, 5, 0, Difficulty.MEDIUM),
        (1, 4, 0, Difficulty.HARD),
        (0, 10, 0, Difficulty.VERY_HARD),
        (2, 0, 0, Difficulty.UNDECIDED),
        (3, 0, 7, Difficulty.UNDECIDED),
        (5, 0, 5, Difficulty.MEDIUM),
        (8, 0, 2, Difficulty.EASY),
        (1, 1, 2, Difficulty.UNDECIDED),
    ],
)
def test_difficulty_words(won: int, lost: int, unknown: int, word: Difficulty) -> None:
    assert difficulty(won, lost, unknown) is word


# ---------------------------------------------------------------- a real browser


@needs_chromium
def test_the_browser_shows_the_index_and_every_game_page(published: Path) -> None:
    catalog = json.loads((published / "catalog.json").read_text(encoding="utf-8"))
    index = dump_dom((published / "index.html").as_uri())
    assert index.count('<li class="game"') == len(catalog)
    for entry in catalog:
        assert f'href="{entry["page"]}"' in index
        dom = dump_dom((published / entry["page"]).as_uri())
        design = build_design(json.loads((published / entry["file"]).read_text(encoding="utf-8")))
        board = dom[dom.index('<figure class="board">') : dom.index("</figure>")]
        assert "<svg" in board and board.count('class="cz-pile"') == len(design.depots)
        assert set(re.findall(r'data-depot="([^"]+)"', dom)) == {d.name for d in design.depots}
        assert f'href="{entry["file"]}" download="{entry["file"]}"' in dom
        assert f"<h1>{entry['name']}</h1>" in dom and "<strong>Goal:</strong>" in dom
