#!/usr/bin/env python3
"""Adjudicate a windstorm property claim with the risk matrix next to this file.

Usage:
    python3 adjudicator.py '{"region": "coastal", "damage_type": "roof", "wind_speed_mph": 85,
                            "claimed_amount": 20000, "policy_limit": 250000, "deductible": 1000}'
    cat claim.json | python3 adjudicator.py

Prints one JSON object: decision (approve | refer | deny), payout, the matched matrix row
and the reasons. Exit status: 0 for any decision, 2 when the input is malformed.
"""
from __future__ import annotations

import csv
import json
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

MATRIX_PATH = Path(__file__).resolve().parent / "risk_matrix.csv"
CENT = Decimal("0.01")

# Approved claims above this amount go to a senior adjuster whatever the matrix says.
LARGE_LOSS_THRESHOLD = Decimal("100000")


def load_matrix(path: Path = MATRIX_PATH) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["wind_min_mph"] = int(row["wind_min_mph"])
        row["wind_max_mph"] = int(row["wind_max_mph"])
        row["payout_pct"] = int(row["payout_pct"])
    return rows


def _amount(claim: dict, field: str, *, default: Decimal | None = None, allow_zero: bool = False) -> Decimal:
    value = claim.get(field)
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field} must be a number")
    try:
        amount = Decimal(str(value))
    except InvalidOperation as err:
        raise ValueError(f"{field} must be a number") from err
    if amount < 0 or (amount == 0 and not allow_zero):
        raise ValueError(f"{field} must be {'at least 0' if allow_zero else 'greater than 0'}")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def adjudicate_claim(claim: dict, matrix: list[dict] | None = None) -> dict:
    """Decide one claim. Raises ValueError when the claim is malformed."""
    if not isinstance(claim, dict):
        raise ValueError("input must be a JSON object")
    matrix = matrix if matrix is not None else load_matrix()
    regions = sorted({r["region"] for r in matrix})
    damage_types = sorted({r["damage_type"] for r in matrix})

    region = claim.get("region")
    if region not in regions:
        raise ValueError(f"region must be one of: {', '.join(regions)}")
    damage_type = claim.get("damage_type")
    if damage_type not in damage_types:
        raise ValueError(f"damage_type must be one of: {', '.join(damage_types)}")
    wind = claim.get("wind_speed_mph")
    if isinstance(wind, bool) or not isinstance(wind, (int, float)) or wind < 0:
        raise ValueError("wind_speed_mph must be a number of at least 0 (peak gust recorded at the property)")
    claimed = _amount(claim, "claimed_amount")
    policy_limit = _amount(claim, "policy_limit")
    deductible = _amount(claim, "deductible", default=Decimal(0), allow_zero=True)

    # Bands are whole mph; a reading of 73.6 belongs to the band holding 74.
    mph = int(Decimal(str(wind)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    row = next((r for r in matrix
                if r["region"] == region and r["damage_type"] == damage_type
                and r["wind_min_mph"] <= mph <= r["wind_max_mph"]), None)
    if row is None:
        raise ValueError(f"wind_speed_mph {wind} is outside every band of the risk matrix; check the reading")

    result = {
        "claim_id": claim.get("claim_id"),
        "decision": row["decision"],
        "payout": 0.0,
        "payout_pct": row["payout_pct"],
        "wind_band": row["wind_band"],
        "matched_rule": f"{region}/{damage_type}/{row['wind_band']}",
        "reasons": [row["note"]] if row["note"] else [],
    }
    if row["decision"] != "approve":
        return result

    covered = min(claimed, policy_limit)
    payout = (covered * row["payout_pct"] / 100 - deductible).quantize(CENT, rounding=ROUND_HALF_UP)
    if claimed > policy_limit:
        result["reasons"].append(f"claim exceeds the policy limit; covered amount capped at {policy_limit:.2f}")
    if payout <= 0:
        result["decision"] = "deny"
        result["reasons"].append(f"covered loss does not exceed the {deductible:.2f} deductible")
        return result
    if claimed > LARGE_LOSS_THRESHOLD:
        result["decision"] = "refer"
        result["reasons"].append(f"claims over {LARGE_LOSS_THRESHOLD:.0f} need a senior adjuster's sign-off; "
                                 f"indicated payout {payout:.2f}")
        return result
    result["payout"] = float(payout)
    result["reasons"].append(f"{row['payout_pct']}% of {covered:.2f} less the {deductible:.2f} deductible")
    return result


def main(argv: list[str]) -> int:
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        result = adjudicate_claim(json.loads(raw))
    except (ValueError, json.JSONDecodeError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
