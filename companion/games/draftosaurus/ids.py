"""Canonical ids of Draftosaurus: species, the pens of each board side, pyramid positions, die faces.

Shared by engine, grammars, voices."""

from __future__ import annotations

from enum import Enum


class Species(str, Enum):
    TREX = "trex"
    TRICERATOPS = "triceratops"
    STEGOSAURUS = "stegosaurus"
    DIPLODOCUS = "diplodocus"
    PARASAUROLOPHUS = "parasaurolophus"
    SPINOSAURUS = "spinosaurus"


class Pen(str, Enum):
    """The six pens of the summer board, and the river (not a pen, but a place a dinosaur can go)."""

    FOREST_OF_SAMENESS = "forest_of_sameness"
    WOODY_TRIO = "woody_trio"
    PRAIRIE_OF_LOVE = "prairie_of_love"
    KING_OF_THE_JUNGLE = "king_of_the_jungle"
    MEADOW_OF_DIFFERENCES = "meadow_of_differences"
    SOLITARY_ISLAND = "solitary_island"
    RIVER = "river"


class WinterPen(str, Enum):
    """The six pens of the winter board (the Lovers' Bridge is two pens, one on each bank), and the river."""

    WELL_ORDERED_WOOD = "well_ordered_wood"
    LOVERS_BRIDGE_LEFT = "lovers_bridge_left"
    LOVERS_BRIDGE_RIGHT = "lovers_bridge_right"
    PYRAMID = "pyramid"
    LOOKOUT = "lookout"
    QUARANTINE = "quarantine"
    RIVER = "river"


class PyramidPosition(str, Enum):
    """The six places of the winter pyramid: the bottom row left to right, the middle row, the top."""

    BOTTOM_LEFT = "bottom_left"
    BOTTOM_CENTRE = "bottom_centre"
    BOTTOM_RIGHT = "bottom_right"
    MIDDLE_LEFT = "middle_left"
    MIDDLE_RIGHT = "middle_right"
    TOP = "top"


class DieFace(str, Enum):
    FOREST = "forest"
    GRASSLAND = "grassland"
    TOILETS = "toilets"
    CAFETERIA = "cafeteria"
    EMPTY_PEN = "empty_pen"
    NO_TREX = "no_trex"


SPECIES: tuple[str, ...] = tuple(s.value for s in Species)
PENS: tuple[str, ...] = tuple(p.value for p in Pen)
DIE_FACES: tuple[str, ...] = tuple(f.value for f in DieFace)
WINTER_PENS: tuple[str, ...] = tuple(p.value for p in WinterPen)
PYRAMID_POSITIONS: tuple[str, ...] = tuple(p.value for p in PyramidPosition)
BOARDS: tuple[str, ...] = ("summer", "winter")  # the two sides of the zoo boards
