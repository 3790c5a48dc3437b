"""The scripts the app serves are the build of their sources: static/js/scorepad.min.js and early.min.js are what
`npm run build` (scripts/build_js.mjs: esbuild bundles the ES modules of assets/js/, terser minifies, each at the
version package.json pins) makes of assets/js/ now.

scripts/test.sh installs Node and the pinned tools (`npm ci`) first, so this never skips.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILT = ("scorepad.min.js", "early.min.js")
TOOLS = ("esbuild", "terser")


@pytest.mark.parametrize("tool", TOOLS)
def test_the_build_tools_installed_are_the_ones_package_json_pins(tool: str):
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"][tool]
    installed = ROOT / "node_modules" / tool / "package.json"
    assert installed.is_file(), f"{tool} is not installed: run `npm ci`"
    version = json.loads(installed.read_text(encoding="utf-8"))["version"]
    assert version == pinned, f"{tool} {version} is installed, package.json pins {pinned}: run `npm ci`"


def test_the_committed_scripts_are_a_fresh_build_of_their_sources(tmp_path: Path):
    node = shutil.which("node")
    assert node, "Node.js is needed to build the scripts: run scripts/test.sh, or install node and run `npm ci`"
    subprocess.run([node, str(ROOT / "scripts" / "build_js.mjs"), str(tmp_path)], check=True, cwd=ROOT)
    stale = [name for name in BUILT if (ROOT / "static" / "js" / name).read_bytes() != (tmp_path / name).read_bytes()]
    assert not stale, f"static/js/{', '.join(stale)} differ from a build of assets/js/: run `npm run build` and commit"


def test_every_module_is_in_the_bundle():
    """A module main.js does not reach (directly or through another) would be left out of the bundle unseen."""
    node = shutil.which("node")
    assert node, "Node.js is needed: run scripts/test.sh"
    script = (
        "const {build} = require('esbuild');"
        "build({entryPoints: ['assets/js/main.js'], bundle: true, write: false, metafile: true, logLevel: 'silent'})"
        ".then((r) => console.log(JSON.stringify(Object.keys(r.metafile.inputs))))"
    )
    reached = json.loads(subprocess.run([node, "-e", script], check=True, cwd=ROOT, capture_output=True).stdout)
    sources = {f"assets/js/{path.name}" for path in (ROOT / "assets" / "js").glob("*.js")} - {"assets/js/early.js"}
    assert sorted(sources - set(reached)) == []


def test_the_app_serves_no_script_but_the_built_ones_and_htmx():
    served = sorted(path.name for path in (ROOT / "static").rglob("*.js"))
    assert served == sorted([*BUILT, "htmx-2.0.11.min.js"])
