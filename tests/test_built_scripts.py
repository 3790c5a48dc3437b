"""The scripts the app serves are the build of their sources: static/js/scorepad.min.js and early.min.js are what
`npm run build` (scripts/build_js.mjs, with the terser version package.json pins) makes of assets/js/ now.

scripts/test.sh installs Node and the pinned terser (`npm ci`) first, so this never skips.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT = ("scorepad.min.js", "early.min.js")


def test_the_committed_scripts_are_a_fresh_build_of_their_sources(tmp_path: Path):
    node = shutil.which("node")
    assert node, "Node.js is needed to build the scripts: run scripts/test.sh, or install node and run `npm ci`"
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]["terser"]
    installed = ROOT / "node_modules" / "terser" / "package.json"
    assert installed.is_file(), "terser is not installed: run `npm ci`"
    version = json.loads(installed.read_text(encoding="utf-8"))["version"]
    assert version == pinned, f"terser {version} is installed, package.json pins {pinned}: run `npm ci`"

    subprocess.run([node, str(ROOT / "scripts" / "build_js.mjs"), str(tmp_path)], check=True, cwd=ROOT)
    stale = [name for name in BUILT if (ROOT / "static" / "js" / name).read_bytes() != (tmp_path / name).read_bytes()]
    assert not stale, f"static/js/{', '.join(stale)} differ from a build of assets/js/: run `npm run build` and commit"


def test_the_app_serves_no_script_but_the_built_ones_and_htmx():
    served = sorted(path.name for path in (ROOT / "static").rglob("*.js"))
    assert served == sorted([*BUILT, "htmx-2.0.11.min.js"])
