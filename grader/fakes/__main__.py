"""Entry point of `python -m grader.fakes`."""

import sys

from ._cli import main

sys.exit(main())
