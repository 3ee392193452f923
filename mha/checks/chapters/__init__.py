"""The exercises, one module per chapter (``chNN_topic.py``); see :mod:`mha.checks`."""
