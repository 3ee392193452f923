"""What the notebooks need around the mathematics: glued numbers, figures, diagrams.

:mod:`mha.book.glue` puts the chapters' numbers into the prose, :mod:`mha.book.plot` draws
attention maps, :mod:`mha.book.diagrams` the diagrams of the computation,
:mod:`mha.book.explorer` the interactive head view, and :mod:`mha.book.fake_gpu` runs
chapter 7's GPU branches on the CPU for tests.
"""
