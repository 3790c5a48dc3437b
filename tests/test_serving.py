"""The app as the Procfile's server runs it (scorepad/serving.py): what start-up made is kept out of the collector's
full passes. Run in a process of its own: freezing is for the whole process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import gc, json
from scorepad.serving import app
made = app()
gc.collect()
print(json.dumps({"name": made.name, "frozen": gc.get_freeze_count(), "left": len(gc.get_objects())}))
"""


def test_the_served_app_is_created_and_what_start_up_made_is_frozen(tmp_path):
    env = {**os.environ, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["name"] == "scorepad"
    # Start-up made tens of thousands of objects; frozen, a full pass scans only those made since.
    assert seen["frozen"] > 20_000 and seen["left"] < seen["frozen"] / 10, seen


def test_the_procfile_serves_that_app():
    web = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    assert "--factory" in web.split() and "scorepad.serving:app" in web.split()
