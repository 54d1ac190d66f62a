"""The HTTP server: the API, the console and the MCP door mounted on one ASGI application, with
the embedded worker (``create_app``), and its entry point for uvicorn (``main``)."""
