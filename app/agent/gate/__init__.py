"""The gate: ALLOW, CONFIRM or DENY for every call the model proposes, decided by code.

Its face, what the rest of the app uses: `decide` (the `Verdict` for one call in a
`ContextState`, from the `ToolRule`s it is handed), `offer_standing` and the standing grants
(`StandingPermission`, kept by a `Permissions` store), and `ApprovalBook` (what runs is what
the user approved). A tool's declaration is its rule (`rules`): the gate imports no tool.

Inside, start at `policy` (the whole contract in its docstring and `decide`). Beside it: what
the arguments are (`arguments`), where paths and addresses may reach (`paths`, `urls`), what
the content holds (`detectors`, over `bip39` for seed phrases), where data came from
(`labels`), approvals bound to exact arguments (`approvals`) and the user's standing grants
(`permissions`). The tools use `labels`, `urls`, `arguments` and `detectors` directly to
label and check what they handle; everything else goes through this face
(`tests/import_check.py` holds both). No Qt, no model: the gate runs the same under the
window, `ask` and tests.
"""

from app.agent.gate.approvals import ApprovalBook, argument_hash
from app.agent.gate.permissions import MemoryPermissions, Permissions, StoredPermissions
from app.agent.gate.policy import (
    ContextState,
    Decision,
    StandingPermission,
    Verdict,
    decide,
    offer_standing,
)
from app.agent.gate.rules import (
    ArgumentHook,
    Label,
    Rule,
    StandingScope,
    ToolRule,
    effective_label,
)

__all__ = [
    "ApprovalBook",
    "ArgumentHook",
    "ContextState",
    "Decision",
    "Label",
    "MemoryPermissions",
    "Permissions",
    "Rule",
    "StandingPermission",
    "StandingScope",
    "StoredPermissions",
    "ToolRule",
    "Verdict",
    "argument_hash",
    "decide",
    "effective_label",
    "offer_standing",
]
