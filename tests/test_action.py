"""The GitHub Action (action.yml): its steps run in a clean virtual environment that installs this checkout.

The ``run:`` steps are taken from action.yml as written, with the inputs substituted the way
GitHub does (``${{ inputs.name }}``, through ``env:``), and run by bash with a fresh
``python -m venv`` first on the PATH. ``uses:`` steps (setup-python) are what the venv stands
for. Nothing is fetched from the network: the checkout is installed from a wheel built here
(``pip wheel --no-build-isolation`` when the installed setuptools can, else written directly
from the package's files), its dependencies come from the system's site packages.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
ACTION = ROOT / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def action() -> dict[str, Any]:
    loaded = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def substitute(text: str, inputs: dict[str, str]) -> str:
    """``${{ inputs.x }}`` as GitHub fills it in; any other expression is a test failure."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        assert expression.startswith("inputs."), f"the test knows only inputs, not {expression}"
        return inputs[expression.removeprefix("inputs.")]

    return _EXPRESSION.sub(value, text)


def version() -> str:
    found = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.MULTILINE)
    assert found
    return found.group(1)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(folder: Path) -> Path:
    """A wheel of this checkout, without the network."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-q",
         "-w", str(folder), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    wheels = sorted(folder.glob("cardz_tools-*.whl"))
    if built.returncode == 0 and wheels:
        return wheels[0]
    # The installed setuptools cannot build one offline (no 'wheel' package): write it from the files.
    name = f"cardz_tools-{version()}"
    target = folder / f"{name}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((ROOT / "cardz_tools").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                data = path.read_bytes()
                arcname = path.relative_to(ROOT).as_posix()
                archive.writestr(arcname, data)
                records.append(_record_line(arcname, data))
        meta = {
            "METADATA": f"Metadata-Version: 2.1\nName: cardz-tools\nVersion: {version()}\n",
            "WHEEL": "Wheel-Version: 1.0\nGenerator: tests/test_action.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
            "entry_points.txt": "[console_scripts]\ncardz = cardz_tools.cli:main\n",
        }
        for file, text in meta.items():
            arcname = f"{name}.dist-info/{file}"
            archive.writestr(arcname, text)
            records.append(_record_line(arcname, text.encode()))
        records.append(f"{name}.dist-info/RECORD,,")
        archive.writestr(f"{name}.dist-info/RECORD", "\n".join(records) + "\n")
    return target


def run_steps(workdir: Path, venv: Path, inputs: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    """Run the action's ``run:`` steps in order, as a composite action would; stop at the first failure."""
    declared = action()["inputs"]
    values = {name: str(spec.get("default", "")) for name, spec in declared.items()}
    assert set(inputs) <= set(values), "the test passes an input the action does not declare"
    values.update(inputs)
    done = []
    for step in action()["runs"]["steps"]:
        if "run" not in step:
            assert "uses" in step and str(step["uses"]).startswith("actions/setup-python")
            continue
        assert step.get("shell") == "bash"
        env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["GITHUB_OUTPUT"] = str(workdir / "github-output")
        env.update({key: substitute(str(value), values) for key, value in step.get("env", {}).items()})
        script = substitute(step["run"], values)
        result = subprocess.run(["bash", "-e", "-c", script], cwd=workdir, env=env, capture_output=True, text=True,
                                timeout=600)
        done.append(result)
        if result.returncode != 0:
            break
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("bash") is None:
        pytest.skip("bash is needed to run the action's steps")
    folder = tmp_path_factory.mktemp("action")
    environment = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(environment)], check=True, timeout=300)
    return environment, build_wheel(folder)


def test_the_action_is_a_composite_action_with_documented_inputs() -> None:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    for name, item in spec["inputs"].items():
        assert item.get("description"), f"input {name} has no description"
    assert any("--format github" in str(step.get("run", "")) for step in spec["runs"]["steps"])


def test_the_steps_check_a_repository_in_a_clean_venv(venv: tuple[Path, Path], tmp_path: Path) -> None:
    environment, wheel = venv
    settings = "[tool.cardz.check]\nplayouts = 20\ndeals = 1\nseconds = 0\nbudget = 500\n"
    (tmp_path / "pyproject.toml").write_text(settings, encoding="utf-8")
    designs = tmp_path / "games"
    designs.mkdir()
    shutil.copy(GAMES / "golf.cardz", designs)
    inputs = {
        "paths": "games",
        "package": str(wheel),
        "pip-options": "--no-deps --no-index --force-reinstall",
        "strict": "true",
        "sarif-file": "cardz.sarif",
    }
    steps = run_steps(tmp_path, environment, inputs)
    assert [step.returncode for step in steps] == [0, 0], [step.stderr[-2000:] for step in steps]
    where = subprocess.run([str(environment / "bin" / "python"), "-c",
                            "import cardz_tools; print(cardz_tools.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(environment), "the venv must run the installed checkout"
    sarif = json.loads((tmp_path / "cardz.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert (tmp_path / ".cardz_cache" / "CACHEDIR.TAG").is_file()
    assert "exit-code=0" in (tmp_path / "github-output").read_text(encoding="utf-8")

    # A broken design: annotations for the pull request, and the step fails.
    shutil.copy(ROOT / "tests" / "examples" / "invalid" / "every-error-at-once.cardz", designs / "broken.cardz")
    steps = run_steps(tmp_path, environment, inputs)
    assert [step.returncode for step in steps] == [0, 1]
    annotations = [line for line in steps[1].stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 3 and all("file=games/broken.cardz" in line for line in annotations)
    results = json.loads((tmp_path / "cardz.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results if r["level"] == "error") == ["CZ201", "CZ203", "CZ302"]
