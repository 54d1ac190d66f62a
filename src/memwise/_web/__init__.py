"""What the HTTP doors share: the server's thread pools, the edge limits, the error answers and
the caller's address. The API, the console and the MCP door import it; it imports none of them."""
