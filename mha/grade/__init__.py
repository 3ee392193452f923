"""The batch grader: each exercise of each notebook in its own sandbox, the verdicts here.

    python -m mha.grade SUBMISSIONS... [--out grades] [--jobs N] [--shard i/N] [--resume]
    python -m mha.grade merge grades-1 grades-2 ... --out grades

Its files run in two places (see README.md, "For instructors", for the threat model):

In the grader's process (trusted; it never runs a notebook's code):

- :mod:`~mha.grade.cli`: the command line, the run over a class, progress;
- :mod:`~mha.grade.submissions`: reading a notebook without trusting it;
- :mod:`~mha.grade.slicing`: which statements an answer needs, read statically;
- :mod:`~mha.grade.view`: the package as an exercise's sandbox sees it, without its references;
- :mod:`~mha.grade.grader`: one submission, exercise by exercise: the secret inputs, the
  sandbox, the verdict (``exercise.judge``);
- :mod:`~mha.grade.sandbox`: bubblewrap, the channel, the grader's clock;
- :mod:`~mha.grade.processes`: the process helpers (control groups, the watch, stopping);
- :mod:`~mha.grade.table` and :mod:`~mha.grade.gradebook`: the tables, the feedback, the
  exports and the similarity report.

In the sandbox (untrusted; whatever it sends is only the answer's output):

- :mod:`~mha.grade.answer`: runs the statements, calls the answer on each input;
- :mod:`~mha.grade.unavailable`: the placeholders for what the sandbox leaves out.

On both sides: :mod:`~mha.grade.protocol`, what crosses (plain data, no pickle, validated).
"""
