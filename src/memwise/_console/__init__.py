"""The operator console: server-rendered pages (Jinja2) over the same services as the API.

Logged in with a workspace API key (kept in an HttpOnly, SameSite=Strict cookie); every
form carries a CSRF token derived from that key. Pages work without JavaScript; a small
script adds the live rebuild banner, the graph's search and legend filter, and confirms.
"""
