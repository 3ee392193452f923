"""The batch grader: each notebook in its own sandbox, the verdicts in the grader's process.

    python -m mha.grade SUBMISSIONS... [--out grades] [--jobs N] [--shard i/N] [--resume]
    python -m mha.grade merge grades-1 grades-2 ... --out grades

``SUBMISSIONS`` are ``.ipynb`` files or folders (searched recursively). For each notebook:

1. :mod:`~mha.grade.submissions` reads it without trusting it (regular files only, a byte
   limit, links never followed; a notebook that cannot be read gets a row with the reason)
   and finds its ``check("name", answer)`` cells by parsing. The notebook is graded on the
   exercises of its chapter: the chapter with the most check cells (or ``--chapter``, or
   exactly ``--exercises``), so the out-of of one notebook never depends on another.
2. :mod:`~mha.grade.grader` draws a secret seed and every exercise's test inputs
   (``exercise.trials``), and sends the notebook's code cells and the inputs to
   :mod:`~mha.grade.runner` in a fresh sandbox (:mod:`~mha.grade.sandbox`, bubblewrap).
3. There the runner executes the notebook in a Jupyter kernel; then the harness
   (:mod:`~mha.grade.harness`), installed in the kernel before the first cell, runs each
   answer on the inputs (:func:`mha.checks.run_answer`) and watches for the reference.
4. Back in the grader, only plain data (:mod:`~mha.grade.wire`: arrays, no pickle, size
   limits) is accepted, and each verdict is computed here by ``exercise.judge``.
5. :mod:`~mha.grade.table` appends the row to ``grades.csv`` / ``grades.json`` and writes a
   Markdown feedback file for the student.

See README.md, "For instructors", for the threat model and how to run it on a shared server.
"""
