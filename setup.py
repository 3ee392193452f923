"""Build hook: an installed ``mha`` carries the book's solutions.

The checks name a mistake nobody stored by the edit of the book's solution that reproduces it
(``mha/checks/edits.py``). In a clone the solutions are read from ``chapters/solutions/``; a
wheel (``pip install "mha @ git+..."`` on Colab, the website's in-page Python) has no
``chapters/``, so the build copies them into ``mha/checks/solutions/``. Everything else about
the package is in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOLUTIONS = Path(__file__).resolve().parent / "chapters" / "solutions"


class BuildWithSolutions(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "mha" / "checks" / "solutions"
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.py")):
            shutil.copyfile(path, target / path.name)


setup(cmdclass={"build_py": BuildWithSolutions})
