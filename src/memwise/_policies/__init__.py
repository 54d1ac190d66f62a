"""Limits and the rules that enforce them."""
