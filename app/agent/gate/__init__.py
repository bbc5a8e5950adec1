"""The gate: ALLOW, CONFIRM or DENY for every call the model proposes, decided by code.

Start at `policy` (the whole contract in its docstring and `decide`). Beside it: what the
arguments are (`arguments`), where paths and addresses may reach (`paths`, `urls`), what the
content holds (`detectors`, over `bip39` for seed phrases), where data came from (`labels`),
approvals bound to exact arguments (`approvals`) and the user's standing grants
(`permissions`). No Qt, no model: the gate runs the same under the window, `ask` and tests.
"""
