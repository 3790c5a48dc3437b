"""Flask extensions, created unbound and bound to the app in create_app."""

from flask_babel import Babel
from flask_migrate import Migrate
from htmx_flask import Htmx

migrate = Migrate()
htmx = Htmx()
babel = Babel()  # the page's language (web.pick_language) and the catalogues of translations/ (docs/i18n.md)
