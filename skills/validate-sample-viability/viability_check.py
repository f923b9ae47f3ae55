#!/usr/bin/env python3
"""Check whether a biological sample is still usable for analysis.

Usage:
    python3 viability_check.py '{"sample_type": "plasma", "storage_temp_c": -80,
                                 "hours_since_collection": 72, "biomarkers": {"hemolysis_index": 12}}'
    cat sample.json | python3 viability_check.py

Constraints come from biomarker_constraints.json next to this file. Prints one JSON object
with `viable`, every check that ran, and a reason for each failed check.
Exit status: 0 whether or not the sample is viable, 2 when the input is malformed.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

CONSTRAINTS_PATH = Path(__file__).resolve().parent / "biomarker_constraints.json"


def load_constraints(path: Path = CONSTRAINTS_PATH) -> dict:
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{field} must be a number")
    return float(value)


def _range_text(rule: dict) -> str:
    lo, hi = rule.get("min"), rule.get("max")
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    return f">= {lo}" if lo is not None else f"<= {hi}"


def _in_range(value: float, rule: dict) -> bool:
    return (rule.get("min") is None or value >= rule["min"]) and (rule.get("max") is None or value <= rule["max"])


def validate_sample(sample: dict, constraints: dict | None = None) -> dict:
    """Judge one sample. Raises ValueError when the input is malformed."""
    if not isinstance(sample, dict):
        raise ValueError("input must be a JSON object")
    constraints = constraints or load_constraints()
    types = constraints["sample_types"]
    sample_type = sample.get("sample_type")
    if sample_type not in types:
        raise ValueError(f"sample_type must be one of: {', '.join(sorted(types))}")
    rules = types[sample_type]
    temp = _number(sample.get("storage_temp_c"), "storage_temp_c")
    hours = _number(sample.get("hours_since_collection"), "hours_since_collection")
    if hours < 0:
        raise ValueError("hours_since_collection must be at least 0")
    biomarkers = sample.get("biomarkers", {})
    if not isinstance(biomarkers, dict):
        raise ValueError("biomarkers must be an object of name: value")

    checks: list[dict] = []
    reasons: list[str] = []

    def record(check: str, value: object, allowed: str, passed: bool, reason: str) -> None:
        checks.append({"check": check, "value": value, "allowed": allowed, "passed": passed})
        if not passed:
            reasons.append(reason)

    temp_rule = rules["storage_temp_c"]
    record("storage_temp_c", temp, f"{_range_text(temp_rule)} C", _in_range(temp, temp_rule),
           f"{sample_type} stored at {temp:g} C; it must be kept at {_range_text(temp_rule)} C")

    max_hours = rules["max_hours_since_collection"]
    record("hours_since_collection", hours, f"<= {max_hours}", hours <= max_hours,
           f"{hours:g} hours since collection exceeds the {max_hours}-hour stability window for {sample_type}")

    for name in rules["required_biomarkers"]:
        if name not in biomarkers:
            record(name, None, "required", False, f"{name} was not measured; it is required for {sample_type}")

    known = constraints["biomarkers"]
    unchecked = sorted(n for n in biomarkers if n not in known)
    for name in sorted(n for n in biomarkers if n in known):
        rule = known[name]
        value = _number(biomarkers[name], f"biomarkers.{name}")
        record(name, value, f"{_range_text(rule)} {rule['unit']}", _in_range(value, rule),
               f"{name} = {value:g} is outside {_range_text(rule)} {rule['unit']}: {rule['why']}")

    return {
        "sample_id": sample.get("sample_id"),
        "sample_type": sample_type,
        "viable": not reasons,
        "checks": checks,
        "reasons": reasons,
        "unchecked_biomarkers": unchecked,
    }


def main(argv: list[str]) -> int:
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        result = validate_sample(json.loads(raw))
    except (ValueError, json.JSONDecodeError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
