"""``python -m mha.bench``."""

from mha.bench.cli import main

main()
