"""The app as the Procfile's server runs it (`granian --factory scorepad.serving:app`, in each worker process).

A worker keeps what it made at start-up (modules, templates, catalogues, the engine: about 140,000 objects) for
good. Python's collector scans every one of them in each full pass: about 0.1 s during which no thread of the
worker answers (a wall's changed answer at 1,000 tables took 120 to 200 ms instead of 30 when one fell in it;
docs/performance.md, "A club night"). Frozen once made (gc.freeze), they are no longer scanned: a full pass
costs about 1 ms. Tests build apps with create_app itself and freeze nothing.
"""

from __future__ import annotations

import gc

from flask import Flask

from . import create_app


def app() -> Flask:
    """create_app(), then what start-up made and still holds kept out of the collector's passes."""
    made = create_app()
    gc.collect()  # what start-up left behind goes now, before the rest is frozen
    gc.freeze()
    return made
