"""The tools: each declared once (`declarations`), wired to its connector (`toolbox`, or an
outside server in `tool_servers`), registered for a session (`registry`), offered by topic
(`tool_selection`) and put in people's words for the confirmation dialog (`wording`,
`previews`, `readable_diff`, `contact_names`, and `id_hints` when the model names a thing
instead of its id).
"""
