"""The table page: Flask app factory, JSON API, live Server-Sent Events, translations."""
from .app import close_app, create_app
from .server import THREADS, make_server, serve

__all__ = ["create_app", "close_app", "serve", "make_server", "THREADS"]
