"""Text from a bundle made safe for the medium it is shown in: one helper per medium, used everywhere bundle text
is printed (terminal: Rich markup escaped, control and escape characters shown, never sent; CSV: a cell that a
spreadsheet would run as a formula is neutralised; HTML: escaped)."""

from grader.hygiene._csv import for_csv, for_csv_row
from grader.hygiene._html import for_html
from grader.hygiene._terminal import SafeConsole, for_terminal, visible_controls

__all__ = ["SafeConsole", "for_csv", "for_csv_row", "for_html", "for_terminal", "visible_controls"]
