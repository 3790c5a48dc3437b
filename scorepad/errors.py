"""Errors for the whole app: a page in words for a person, the API's JSON errors for /api, never a bare status."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from markupsafe import escape
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError, NotFound, RequestEntityTooLarge

from . import store

# In the page's language when said (str() of each, docs/i18n.md).
BAD_HOST = lazy_gettext(
    "The server name in this address can't be one (a part of it is empty or over 63 characters): "
    "check the address, or open Scorepad from its link again."
)

TOO_LARGE = lazy_gettext(
    "This is more than Scorepad takes at once: a game file up to 16 MB, anything else up to 1 MB, and a field "
    "up to 1,000 characters. Nothing was saved."
)


def wants_json() -> bool:
    """Whether the request is the API's, which always answers in JSON."""
    return request.path.startswith("/api/")


def error_json(status: int, message: str, field: str = "") -> tuple[Response, int]:
    """The API's error shape: {"errors": [{"field", "message"}]}, the same as a refused hand."""
    return jsonify({"errors": [{"field": field, "message": message}]}), status


def http_error(error: HTTPException) -> ResponseReturnValue:
    """An HTTP error (403, 404, 405, 413, 429 ...) as JSON for the API or as a page in words."""
    status = error.code or 500
    if isinstance(error, BadHost):
        error = BadHost(description=str(BAD_HOST))
    elif isinstance(error, RequestEntityTooLarge) and error.description == RequestEntityTooLarge.description:
        error = RequestEntityTooLarge(description=str(TOO_LARGE))  # werkzeug's own words: ours instead
    if wants_json():
        return error_json(status, error.description or error.name)
    if request_ctx.url_adapter is None:  # an address Flask could not read (BadHost): no link can be made to it
        return plain_page(error), status
    return render_template("error.html", error=error), status


def plain_page(error: HTTPException) -> Response:
    """The error as a page that links nowhere: for a request whose address can't be read, so no link can be made
    (base.html links the stylesheet and scripts)."""
    body = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(error.name)}</title></head>'
        f"<body><h1>{escape(error.name)}</h1><p>{escape(error.description or '')}</p></body></html>"
    )
    return Response(body, mimetype="text/html")


GAME_GONE = lazy_gettext(
    "There is no game at this address any more: it was deleted, here or on another phone. Nothing was saved."
)


def game_gone(error: store.GameNotFound) -> ResponseReturnValue:
    """A game deleted between a view's reading it and its change (another phone, or a second tap on Delete): the
    404 in words, never a 500, at every door."""
    if request.path.startswith("/sync/"):  # the phone's queue reads {"outcome", "reason"} (sync.py)
        return jsonify({"outcome": "error", "reason": str(GAME_GONE)}), 404
    return http_error(NotFound(description=str(GAME_GONE)))


def server_error(error: InternalServerError) -> ResponseReturnValue:
    """Anything unforeseen (Flask has logged it with its traceback): a 500 in the same shape as every error."""
    return http_error(
        InternalServerError(
            description=str(
                lazy_gettext("Something went wrong on the server. Nothing you entered is lost: try again in a moment.")
            )
        )
    )


def init_app(app: Flask) -> None:
    """Answer every error in words (pages) or JSON (API)."""
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(InternalServerError, server_error)
    app.register_error_handler(store.GameNotFound, game_gone)
