"""Per-turn context: the single place that decides what the model sees."""
