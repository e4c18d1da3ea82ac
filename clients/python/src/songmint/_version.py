"""The client's version: the API's major.minor (``API_VERSION``), then the client's own patch
level (docs/clients.md, "Versions"; test/clients/versions.test.ts checks them)."""

__version__ = "1.0.0"
