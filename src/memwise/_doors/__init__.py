"""The doors an assistant is reached through besides the HTTP API: MCP and Telegram."""
