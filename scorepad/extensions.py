"""Flask extensions, created unbound and bound to the app in create_app."""

from flask_migrate import Migrate
from htmx_flask import Htmx

migrate = Migrate()
htmx = Htmx()
