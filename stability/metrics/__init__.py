"""Reference-based segmentation metrics (temporary stub while the package is built)."""
from ._common import WINDOW_POLICIES, window_size
from .windows import (NWinResult, PrErrorResult, WindowResult, expected_windowdiff, nwin, pk, pr_error,
                      tnwin, windowdiff, windowdiff_corrected)
