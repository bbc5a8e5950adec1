"""What every layer needs and none owns, below them all: the model layer, the connectors and
the agent import it; it imports only the standard library (the layer check holds it to that).

A package of its own because of the layer rule: `app/llm` may not reach into a connector and a
connector imports nothing from `app`, so what both need (what an e-mail address looks like)
can live in neither. Named `shared`, not `common` or `utils`: names that stray wheels install
as top-level packages.
"""
