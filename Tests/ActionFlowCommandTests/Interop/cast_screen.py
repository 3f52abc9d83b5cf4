"""Feeds `asciinema cat` output (standard input) through the pyte terminal emulator at the
given size and prints the final screen, one line per row, trailing spaces kept."""
import sys

import pyte

columns, rows = int(sys.argv[1]), int(sys.argv[2])
screen = pyte.Screen(columns, rows)
stream = pyte.Stream(screen)
stream.feed(sys.stdin.buffer.read().decode("utf-8"))
sys.stdout.write("\n".join(screen.display))
