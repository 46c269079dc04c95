"""Figures for people to look at: the pockets with their dimensions and acceptance charts
(:mod:`.acceptance`, :mod:`.pocket_figures`) and canonical shots drawn on the table
(:mod:`.shots`)."""
