"""The editor setups of docs/editors.md: each snippet the docs show is the file that is tested.

Neovim (Debian 12 ships 0.7.2) runs headless from the documented 0.7 setup,
opens a design with a typo and gets its diagnostics, applies the quick fix,
formats, renames a depot everywhere, lists the outline and, after saving, shows
the live analysis on the design's name; the test skips when
``nvim`` is not installed. The VS Code extension is checked without npm: its
manifest starts ``cardz lsp``, associates ``*.cardz`` with JSON and the schema; and
activated under ``node`` with VS Code's API stood in for, it reads the settings it
declares and starts a server that offers what its manifest promises.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardz_tools import fmt
from tests.conftest import ROOT

DOCS = ROOT / "docs" / "editors.md"
NEOVIM_07 = ROOT / "editors" / "neovim" / "init-0.7.lua"
SESSION = Path(__file__).parent / "editors" / "neovim_session.lua"
VSCODE = ROOT / "editors" / "vscode"
SEED = ROOT / "games" / "monte-carlo.cardz"


def _blocks(language: str) -> list[str]:
    """The fenced code blocks of docs/editors.md in ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_documented_neovim_07_setup_is_the_tested_file() -> None:
    assert NEOVIM_07.read_text(encoding="utf-8") in _blocks("lua")


def _cardz_on_path(folder: Path) -> dict[str, str]:
    """An environment whose ``cardz`` runs this checkout (the installed one may be another copy)."""
    shim = folder / "cardz"
    shim.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m cardz_tools "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(folder)}


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (apt-get install neovim)")
def test_a_headless_neovim_from_the_documented_setup_fixes_formats_renames_and_outlines(tmp_path: Path) -> None:
    seed = SEED.read_text(encoding="utf-8")
    text = seed.replace("card.rank", "card.rnak").replace('"depotOnly": true', '"depotOnly":   true')
    design = tmp_path / "games" / "monte-carlo.cardz"
    design.parent.mkdir()
    design.write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    results = tmp_path / "results.json"
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    env = {**_cardz_on_path(bin_folder), "CARDZ_DESIGN": str(design), "CARDZ_RESULTS": str(results),
           "XDG_STATE_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path)}
    subprocess.run(["nvim", "--headless", "-u", str(NEOVIM_07), "-c", f"luafile {SESSION}"], env=env, cwd=tmp_path,
                   timeout=150, check=False, capture_output=True, stdin=subprocess.DEVNULL)
    got = json.loads(results.read_text(encoding="utf-8"))
    assert "error" not in got, got.get("error")
    assert got["filetype"] == "cardz" and got["syntax"] == "json" and got["attached"]
    [found] = got["diagnostics"]
    assert found["code"] == "CZ402" and "did you mean 'rank'" in found["message"]
    line = text.splitlines()[found["lnum"]]
    assert line[found["col"]:found["end_col"]] == "rnak"
    assert got["quick_fix"] == "Change to 'rank'" and got["after_fix"] + "\n" == text.replace("card.rnak", "card.rank")
    assert got["formatted"] + "\n" == fmt.format_text(text.replace("card.rnak", "card.rank")) == seed
    renamed = got["renamed"]
    assert '"name": "grid"' in renamed and "any(grid, " in renamed and '"to": "grid"' in renamed
    assert '"group": "grid"' in renamed and "cell," not in renamed
    outline = {entry["name"]: entry["children"] for entry in got["outline"]}
    assert outline["depots"] == ["grid", "stock", "discard"] and "dealRules" in outline
    assert got["lens"].startswith("cardz: random win ") and "solver" in got["lens"]
    assert got["lens_line"] == 1  # on the design's name
    assert got["steps"] == ["diagnostics", "quick fix", "format", "rename", "outline", "live analysis"]


def test_the_vscode_extension_starts_cardz_lsp_for_cardz_files_with_json_and_the_schema() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    contributes = manifest["contributes"]
    assert {"id": "json", "extensions": [".cardz"]} in contributes["languages"]  # JSON highlighting
    [validation] = contributes["jsonValidation"]
    assert validation["fileMatch"] == "*.cardz" and validation["url"] == "./schema/cardz.schema.json"
    # The schema is copied in at build time from the repository's own (never a stale copy in git).
    copier = (VSCODE / "scripts" / "copy-schema.js").read_text(encoding="utf-8")
    assert '"..", "..", "..", "schema", "cardz.schema.json"' in copier
    assert (ROOT / "schema" / "cardz.schema.json").is_file()
    assert "copy-schema.js" in manifest["scripts"]["vscode:prepublish"]
    assert manifest["activationEvents"] == ["workspaceContains:**/*.cardz"]
    assert contributes["configuration"]["properties"]["cardz.server.command"]["default"] == ["cardz", "lsp"]
    assert "vscode-languageclient" in manifest["dependencies"]
    assert (VSCODE / manifest["main"]).is_file()
    extension = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in extension and "TransportKind.stdio" in extension
    assert 'pattern: "**/*.cardz"' in extension and '"server.command", ["cardz", "lsp"]' in extension
    # node_modules is never committed.
    assert "node_modules/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


ACTIVATE = Path(__file__).parent / "editors" / "vscode_activate.js"

_PROMISED = {
    # What the extension's manifest promises -> the server capability that keeps the promise.
    "quick fixes": "code_action_provider",
    "formatting": "document_formatting_provider",
    "outline": "document_symbol_provider",
    "rename": "rename_provider",
    "live analysis": "code_lens_provider",
}


def _activate(settings: dict[str, object]) -> dict[str, object]:
    """What the extension asks VS Code for when it activates with these user settings (VS Code stood in for)."""
    done = subprocess.run(["node", str(ACTIVATE), str(VSCODE / "extension.js"), json.dumps(settings)],
                          capture_output=True, text=True, timeout=30, check=True, stdin=subprocess.DEVNULL)
    activated: dict[str, object] = json.loads(done.stdout)
    return activated


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (apt-get install nodejs)")
def test_the_vscode_extension_activated_starts_a_server_that_offers_what_its_manifest_promises() -> None:
    """VS Code itself cannot be installed here (``@vscode/test-electron`` downloads it): its API is stood in for."""
    pytest.importorskip("pygls")
    import asyncio

    from lsprotocol import types

    from cardz_tools.lsp.server import CardzLanguageServer
    from tests.test_lsp_stdio import TIMEOUT, _Client

    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    declared = manifest["contributes"]["configuration"]["properties"]
    default = _activate({})
    assert "error" not in default
    assert default["serverOptions"] == {"command": "cardz", "args": ["lsp"], "transport": 0}  # stdio
    # Every setting the extension reads is declared in the manifest with the same default, and the other way round.
    read = {entry["name"]: entry["fallback"] for entry in default["read"]}  # type: ignore[attr-defined]
    assert read == {name: setting["default"] for name, setting in declared.items()}
    assert default["subscriptions"] == 1 and default["deactivate"] == "function"
    [selector] = default["clientOptions"]["documentSelector"]  # type: ignore[index]
    assert selector["language"] == "json" and selector["pattern"] == "**/*.cardz"

    # The initializationOptions each setting sends are understood by the server.
    server = CardzLanguageServer()
    assert server.is_design("file:///games/a.cardz") and not server.is_design("file:///games/package.json")
    server.configure(default["clientOptions"]["initializationOptions"])  # type: ignore[index]
    assert server.live_enabled
    command = [sys.executable, "-m", "cardz_tools", "lsp"]
    off = _activate({"cardz.liveAnalysis.enabled": False, "cardz.server.command": command})
    assert off["serverOptions"] == {"command": command[0], "args": command[1:], "transport": 0}
    server.configure(off["clientOptions"]["initializationOptions"])  # type: ignore[index]
    assert not server.live_enabled

    async def capabilities() -> types.ServerCapabilities:
        client = _Client()
        await asyncio.wait_for(client.start_io(*command, cwd=str(ROOT)), TIMEOUT)
        try:
            answer = await asyncio.wait_for(client.initialize_async(types.InitializeParams(
                capabilities=types.ClientCapabilities(), process_id=None,
                initialization_options=off["clientOptions"]["initializationOptions"])), TIMEOUT)  # type: ignore[index]
            await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
            client.exit(None)
        finally:
            await asyncio.wait_for(client.stop(), TIMEOUT)
        return answer.capabilities

    offered = asyncio.run(capabilities())
    for promise, capability in _PROMISED.items():
        assert promise in manifest["description"], promise
        assert getattr(offered, capability), f"the manifest promises {promise}: the server has no {capability}"
    assert "Formatters" in manifest["categories"] and offered.document_range_formatting_provider
    readme = (VSCODE / "README.md").read_text(encoding="utf-8")
    assert "semantic highlighting" in readme and offered.semantic_tokens_provider
    assert "references" in readme and offered.references_provider and "folding" in readme
    assert offered.folding_range_provider and "inlay hints" in readme and offered.inlay_hint_provider
