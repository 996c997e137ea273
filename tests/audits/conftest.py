"""Let the audit tests import their shared synthetic-panel builder (``audits_synthetic``).

Under pytest's importlib import mode test folders are not on sys.path, so this folder is added (the
helper's name is prefixed to stay unique across the test tree).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
