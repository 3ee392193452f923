import sys

from mha.grade.cli import main

sys.exit(main())
