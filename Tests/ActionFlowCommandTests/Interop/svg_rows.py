"""Reads pictures written by `actionflow export --format svg` with CairoSVG, a renderer nobody
here wrote: each picture is rendered to PNG (its size and its background colour checked), and
its text is read back through CairoSVG's own parser, each character put on the row and the
column its position gives.

Usage: python svg_rows.py FOLDER CELL_WIDTH CELL_HEIGHT BASELINE
Prints one JSON object: for each file, its title, caption (its lines joined, and each line), size, corner colour and its
non-blank cells as [row, column, text].
"""
import io
import json
import os
import sys

import cairosvg
from cairosvg.parser import Tree
from PIL import Image


def texts(node):
    if node.tag == "text":
        yield node
    for child in node.children:
        yield from texts(child)


def read(path, cell_width, cell_height, baseline):
    with open(path, "rb") as handle:
        data = handle.read()
    png = cairosvg.svg2png(bytestring=data)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    tree = Tree(bytestring=data)
    title = next((child.text for child in tree.children if child.tag == "title"), None)
    captions = []
    cells = {}
    for node in texts(tree):
        if node.get("class") == "caption":
            captions.append(node.text or "")
            continue
        xs = [float(value) for value in node.get("x").split()]
        row = round((float(node.get("y")) - baseline) / cell_height)
        text = node.text or ""
        if len(xs) == 1:
            cells[(row, round(xs[0] / cell_width))] = text
        else:
            if len(xs) != len(text):
                raise SystemExit(f"{path}: {len(xs)} positions for {len(text)} characters in {text!r}")
            for x, character in zip(xs, text):
                cells[(row, round(x / cell_width))] = character
    found = [[row, column, text] for (row, column), text in sorted(cells.items()) if text.strip()]
    return {"title": title, "caption": " ".join(captions), "captionLines": captions, "cells": found, "size": list(image.size), "corner": "#%02x%02x%02x" % image.getpixel((1, 1))}


def main():
    folder, cell_width, cell_height, baseline = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    result = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".svg"):
            result[name] = read(os.path.join(folder, name), cell_width, cell_height, baseline)
    json.dump(result, sys.stdout, ensure_ascii=False)


main()
