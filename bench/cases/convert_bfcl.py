"""Convert a reproducible sample of BFCL v4 (Gorilla, Apache-2.0) into our eval case format.

BFCL ships its data inside the `bfcl-eval` wheel; we read the JSON files straight out of the
wheel with zipfile rather than install it (it pins heavy dependencies we do not want).

    pip download --no-deps bfcl-eval==2026.3.23 -d /tmp/bfcl
    python bench/cases/convert_bfcl.py /tmp/bfcl/bfcl_eval-2026.3.23-py3-none-any.whl \
        [--per-category 10] [--out bench/cases/bfcl_sample.jsonl]

The sample is evenly spaced over each file (entries 0, n/k, 2n/k, ...), so the same wheel
always gives the same cases. See bench/cases/README.md for attribution.
"""

from __future__ import annotations

import argparse
import json
import re
import zipfile
from pathlib import Path
from typing import Any

# BFCL file stem -> our category name.
CATEGORIES = {
    "simple_python": "simple",
    "multiple": "multiple",
    "parallel": "parallel",
    "parallel_multiple": "parallel_multiple",
    "irrelevance": "irrelevance",
}

# bfcl_eval/constants/type_mappings.py GORILLA_TO_OPENAPI (Apache-2.0, Gorilla authors).
GORILLA_TO_OPENAPI = {
    "integer": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "dict": "object",
    "object": "object",
    "tuple": "array",
    "any": "string",
    "byte": "integer",
    "short": "integer",
    "long": "integer",
    "double": "number",
    "char": "string",
    "ArrayList": "array",
    "Array": "array",
    "HashMap": "object",
    "Hashtable": "object",
    "Queue": "array",
    "Stack": "array",
    "Any": "string",
    "String": "string",
    "Bigint": "integer",
}

DATA = "bfcl_eval/data/"


def convert_schema(schema: Any) -> Any:
    """A Gorilla-typed schema as JSON Schema. Walks only schema positions (properties'
    values, items), because BFCL has parameters that are themselves *named* "type"."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = GORILLA_TO_OPENAPI.get(kind, "string")
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: convert_schema(sub) for name, sub in out["properties"].items()}
    if "items" in out:
        out["items"] = convert_schema(out["items"])
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = convert_schema(out["additionalProperties"])
    return out


def tool_name(name: str) -> str:
    """OpenAI-style names cannot hold dots; BFCL's FC handlers rename them the same way."""
    return re.sub(r"\.", "_", name)


def convert_tool(function: dict[str, Any]) -> dict[str, Any]:
    parameters = convert_schema(function.get("parameters") or {"type": "dict"})
    parameters["type"] = "object"
    parameters.setdefault("properties", {})
    return {
        "type": "function",
        "function": {
            "name": tool_name(function["name"]),
            "description": function.get("description", ""),
            "parameters": parameters,
        },
    }


def convert_entry(
    entry: dict[str, Any], answer: dict[str, Any] | None, category: str, source: str
) -> dict[str, Any]:
    turns = entry["question"]
    messages = [m for turn in turns for m in turn]  # non-live entries are single-turn
    expected = []
    for call in (answer or {}).get("ground_truth", []):
        ((name, arguments),) = call.items()
        expected.append({"name": tool_name(name), "arguments": arguments})
    return {
        "id": entry["id"],
        "category": category,
        "messages": messages,
        "tools": [convert_tool(f) for f in entry["function"]],
        "expected": expected,
        "source": source,
    }


def read_jsonl(archive: zipfile.ZipFile, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in archive.read(name).decode().splitlines() if line.strip()]


def sample(items: list[Any], count: int) -> list[Any]:
    """Evenly spaced: reproducible without a seed, and spread over the whole file."""
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def convert(wheel: Path, per_category: int) -> list[dict[str, Any]]:
    version = wheel.name.split("-")[1] if "-" in wheel.name else "?"
    cases = []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for stem, category in CATEGORIES.items():
            file = f"BFCL_v4_{stem}.json"
            entries = read_jsonl(archive, DATA + file)
            answers_name = DATA + "possible_answer/" + file
            answers = {}
            if answers_name in names:
                answers = {a["id"]: a for a in read_jsonl(archive, answers_name)}
            source = f"bfcl-eval {version} {file}"
            for entry in sample(entries, per_category):
                if len(entry["question"]) != 1:
                    continue
                cases.append(convert_entry(entry, answers.get(entry["id"]), category, source))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("wheel", type=Path)
    parser.add_argument("--per-category", type=int, default=10)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("bfcl_sample.jsonl"))
    args = parser.parse_args()
    cases = convert(args.wheel, args.per_category)
    with args.out.open("w", encoding="utf-8") as handle:
        for case in cases:
            handle.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {args.out}")


if __name__ == "__main__":
    main()
