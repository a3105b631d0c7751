"""Does any language-server request block typing for more than 50 ms? Time every handler.

Run from the repository root: ``python bench/bench_lsp.py [--repeat N] [--depots N] [--sessions N]``.
Each handler is called as the server calls it (from the document's text, with the
position a user would have), in this process, ``--repeat`` times on each design: the
two seeds and a generated large design (``--depots`` depots, each with an accept rule,
an eject rule and a trigger: three expressions a depot). Every call is cold (no cached
tree, as after an edit). The table shows CPU (median, max) and wall (max) milliseconds
and where the server runs the handler: on the request loop, or in a worker process (what
is left of it on the loop, taking the result and writing the reply, is timed as "reply").
Then real stdio sessions time completion round trips on the large design, idle and while
heavy requests keep the server busy, once with the heavy work in worker processes (the
server's default) and once in its threads (``workerProcesses`` 0, the old path: the
baseline, in the same run), with the CPU time the server's own process spent meanwhile.
The exit status is 1 when a handler on the request loop takes more than 50 ms of CPU, or
a completion while busy takes more than 50 ms with worker processes. Wall times on a
shared machine vary with its load, which is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
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
from cardz_tools.lsp.document import Snapshot, design_context, json_tree, lint_document  # noqa: E402
from cardz_tools.lsp.formatting import format_document, format_range  # noqa: E402
from cardz_tools.lsp.hover import hover  # noqa: E402
from cardz_tools.lsp.jobs import name_range_job  # noqa: E402
from cardz_tools.lsp.outline import folding_ranges, outline  # noqa: E402
from cardz_tools.lsp.positions import TextIndex  # noqa: E402
from cardz_tools.lsp.rename import prepare_rename, references, rename  # noqa: E402
from cardz_tools.lsp.server import _symbol, settle_heap  # noqa: E402
from cardz_tools.lsp.tokens import encode, semantic_tokens  # noqa: E402

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


def handlers(text: str, path: Path) -> dict[tuple[str, str], Callable[[], object]]:
    """Every request as the server answers it, at a position inside a rule expression where one is needed.

    Keyed by (request, where the server runs it): "loop" handlers answer on the request
    loop and must each stay within the budget; "process" handlers run in a worker process.
    """
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

    from lsprotocol import types
    from pygls.protocol import default_converter

    converter = default_converter()
    symbols = outline(text, index)
    tokens = encode(semantic_tokens(text, snapshot.context), index)
    pickled_context = pickle.dumps(snapshot.context)
    pickled_symbols = pickle.dumps(symbols)

    def outline_reply() -> object:  # the result arrives pickled, becomes LSP types and is written as JSON
        return json.dumps(converter.unstructure([_symbol(symbol) for symbol in pickle.loads(pickled_symbols)]))

    def tokens_reply() -> object:
        return json.dumps(converter.unstructure(types.SemanticTokens(data=tokens)))

    on_loop: dict[str, Callable[[], object]] = {
        "design context": lambda: design_context(text, path),  # hover/completion after an edit, before the lint
        "hover": lambda: hover(snapshot, at_rule),
        "completion": lambda: complete(snapshot, at_rule),
        "definition": lambda: definition(snapshot, at_name),
        "codeAction": code_action,
        "model (reply)": lambda: pickle.loads(pickled_context),
        "documentSymbol (reply)": outline_reply,
        "semanticTokens (reply)": tokens_reply,
    }
    in_process: dict[str, Callable[[], object]] = {
        "model (didChange)": lambda: design_context(text, path),
        "formatting": lambda: format_document(text),
        "rangeFormatting": lambda: format_range(text, rule, rule + 2),
        "documentSymbol": lambda: outline(text, index),
        "foldingRange": lambda: folding_ranges(text),
        "references": lambda: references(Snapshot.of(text, path), at_name),
        "prepareRename": lambda: prepare_rename(Snapshot.of(text, path), at_name),
        "rename": lambda: rename(Snapshot.of(text, path), at_name, "renamed_depot"),
        "semanticTokens": lambda: encode(semantic_tokens(text, Snapshot.of(text, path).context), index),
        "codeLens": lambda: name_range_job(text, index.encoding),
    }
    return {**{(name, "loop"): call for name, call in on_loop.items()},
            ("lint (didChange)", "process"): lambda: lint_document(text, path),
            **{(name, "process"): call for name, call in in_process.items()}}


def measure(call: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """CPU and wall milliseconds of each call, every one cold (the first request after an edit finds no cached tree).

    CPU time (of this thread) is what a handler costs whatever else the machine runs; wall time on a
    loaded machine is larger.
    """
    call()  # imports and the schema, loaded once by a running server
    cpu, wall = [], []
    for _ in range(repeat):
        json_tree.cache_clear()
        started, started_cpu = time.perf_counter(), time.thread_time()
        call()
        cpu.append(1000 * (time.thread_time() - started_cpu))
        wall.append(1000 * (time.perf_counter() - started))
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--depots", type=int, default=120)
    parser.add_argument("--sessions", type=int, default=1,
                        help="stdio sessions of each kind, alternating (a loaded machine's noise averages out)")
    args = parser.parse_args()
    settle_heap()  # as the server does when it is initialised
    designs = [(path.stem, path.read_text(encoding="utf-8"), path) for path in SEEDS]
    large = large_design(args.depots)
    designs.append((f"large ({args.depots} depots, {len(large) // 1000} KB)", large, ROOT / "games" / "large.cardz"))
    worst_on_loop = 0.0
    slow: list[str] = []
    for label, text, path in designs:
        print(f"\n{label}")
        print(f"  {'request':<18} {'runs on':<8} {'cpu median':>10} {'cpu max':>8} {'wall max':>9}  (ms)")
        for (request, where), call in handlers(text, path).items():
            cpu, wall = measure(call, args.repeat)
            print(f"  {request:<18} {where:<8} {statistics.median(cpu):10.1f} {max(cpu):8.1f} {max(wall):9.1f}")
            if where == "loop":
                worst_on_loop = max(worst_on_loop, max(cpu))
                if max(cpu) > BUDGET_MS:
                    slow.append(f"{label}: {request} {max(cpu):.0f} ms of CPU")
    print(f"\nslowest handler on the request loop: {worst_on_loop:.1f} ms of CPU (budget {BUDGET_MS:.0f} ms)")
    print("\ncompletion round trips over stdio on the large design (wall ms); busy: while it is linted,"
          " tokenised, outlined and searched in the background")
    print(f"  {'heavy work in':<22} {'idle median':>11} {'idle max':>8} {'busy median':>11} {'busy p95':>8}"
          f" {'busy max':>8} {'busy > 50 ms':>12} {'server cpu while busy':>21}")
    figures: dict[int, tuple[list[float], float]] = {2: ([], 0.0), 0: ([], 0.0)}
    kinds = (("worker processes", 2), ("threads (old)", 0))
    for _ in range(args.sessions):
        for label, processes in kinds:
            idle, busy, server_cpu = typing_latency(large, processes)
            figures[processes][0].extend(busy)
            figures[processes] = (figures[processes][0], figures[processes][1] + server_cpu)
            _latency_row(label, idle, busy, server_cpu)
    if args.sessions > 1:
        for label, processes in kinds:
            _latency_row(f"{label}, all", [], *figures[processes])
    (busy_new, cpu_new), (busy_old, cpu_old) = figures[2], figures[0]
    print(f"  processes / threads: busy max {max(busy_new) / max(busy_old):.2f}, busy median"
          f" {statistics.median(busy_new) / statistics.median(busy_old):.2f}, server cpu {cpu_new / cpu_old:.2f}")
    if max(busy_new) > BUDGET_MS:
        slow.append(f"completion while busy: {max(busy_new):.0f} ms")
    print(f"machine load while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for line in slow:
        print(f"  over budget: {line}")
    return 1 if slow else 0


def _latency_row(label: str, idle: list[float], busy: list[float], server_cpu: float) -> None:
    over = sum(1 for took in busy if took > BUDGET_MS)
    idle_figures = f"{statistics.median(idle):11.1f} {max(idle):8.1f}" if idle else f"{'':11} {'':8}"
    print(f"  {label:<22} {idle_figures} {statistics.median(busy):11.1f} {_percentile(busy, 95):8.1f}"
          f" {max(busy):8.1f} {f'{over}/{len(busy)}':>12} {server_cpu:18.0f} ms")


def _percentile(values: list[float], percent: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def typing_latency(text: str, processes: int, rounds: int = 6) -> tuple[list[float], list[float], float]:
    """Round trips of completion requests over stdio while heavy requests run (in ``processes`` workers, 0: threads).

    First 20 completions on the idle server (the baseline); then each round changes the large
    design (a lint follows), asks for its semantic tokens, outline and references at once, and
    times completion requests sent every 20 ms while they run. Also returns the CPU milliseconds
    the server's own process (not its workers) spent in the busy rounds.
    """
    import asyncio
    import tempfile

    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    def server_cpu_ms(pid: int) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return 1000 * (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    async def session(folder: Path) -> tuple[list[float], list[float], float]:
        path = folder / "large.cardz"
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        document = types.TextDocumentIdentifier(uri=uri)
        client = LanguageClient("bench", "1")
        await client.start_io(sys.executable, "-m", "cardz_tools", "lsp", cwd=str(ROOT))
        client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda _client, _params: None)
        options = {"liveAnalysis": False, "workerProcesses": processes}
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), process_id=None, initialization_options=options))
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cardz", version=1, text=text)))
        rule = text.index("card.rank") + len("card.r")
        line = text.count("\n", 0, rule)
        position = types.Position(line=line, character=rule - text.rfind("\n", 0, rule) - 1)

        async def completion() -> float:
            started = time.perf_counter()
            await asyncio.wait_for(client.text_document_completion_async(types.CompletionParams(
                text_document=document, position=position)), 30)
            took = 1000 * (time.perf_counter() - started)
            if os.environ.get("BENCH_VERBOSE"):
                print(f"    completion {took:.0f} ms", flush=True)
            return took

        await asyncio.sleep(3)  # the lint of didOpen is done: the server is idle
        idle = []
        for _ in range(20):
            idle.append(await completion())
            await asyncio.sleep(0.02)
        busy: list[float] = []
        assert client._server is not None
        cpu_before = server_cpu_ms(client._server.pid)
        for version in range(2, 2 + rounds):
            edited = text.replace('"Large"', f'"Large {version}"')
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
            heavy = [asyncio.ensure_future(request) for request in (
                client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=document)),
                client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document)),
                client.text_document_references_async(types.ReferenceParams(
                    text_document=document, position=position,
                    context=types.ReferenceContext(include_declaration=True))),
            )]
            for _ in range(10):
                busy.append(await completion())
                await asyncio.sleep(0.02)
            await asyncio.wait_for(asyncio.gather(*heavy), 120)
        cpu = server_cpu_ms(client._server.pid) - cpu_before
        await client.shutdown_async(None)
        client.exit(None)
        server = client._server  # the server process: it exits on "exit"
        if server is not None:
            try:
                await asyncio.wait_for(server.wait(), 10)
            except TimeoutError:
                server.kill()
        await asyncio.wait_for(client.stop(), 30)
        return idle, busy, cpu

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(asyncio.wait_for(session(Path(folder)), 300))


if __name__ == "__main__":
    raise SystemExit(main())
