"""Canonical ids of Draftosaurus: species, pens (summer board), die faces. Shared by engine, grammars, voices."""

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
