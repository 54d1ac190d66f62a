"""Every call to a model provider's SDK, behind one ``ChatModel``.

The extractor, the item verifier, model mode, the summariser and the evaluation judge all
talk to the configured model through a ``ChatModel`` (``memwise._providers.chat``); the
embedder uses the same SDK loader. The SDKs are optional extras, imported only when used.
"""
