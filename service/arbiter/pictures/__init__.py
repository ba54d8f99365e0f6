"""Pictures of game states: a ruleset describes what a state looks like as a neutral
``Scene`` (its own ``scene.py``, pure, knowing nothing of SVG), and this package draws any
scene as SVG the same way for every ruleset.

Modules: ``scene`` (the neutral description a ruleset fills in, and ``Picture``, what a
ruleset's ``scene.py`` exports), ``svg`` (a small element builder that escapes every text
and attribute), ``hexes`` (pointy-top axial geometry), ``layout`` (a deterministic layout
of area graphs that carry no geometry: the same state always gives the same picture),
``palette`` (owner and terrain colours), ``boxes`` (the room a shape or a text takes, from
the font's measured metrics), ``placing`` (where each label goes: clear of every piece and
of the labels before it), ``draw`` (a scene to an SVG document: board,
overlays, pieces, arrows, violation marks, legend, accessible titles), ``render`` (the
``render`` query every ruleset with a picture answers, and its size limits).

Pure like the engine and the rulesets: no web, cache or I/O imports.
"""
