#!/usr/bin/env python3
"""Check one expense claim against the allowance table next to this file.

Usage:
    python3 policy_check.py '{"category": "meals", "amount": 64.5, "has_receipt": true}'
    echo '{"category": "lodging", "amount": 540, "nights": 2, "has_receipt": true}' | python3 policy_check.py

Prints one JSON object: decision (approve | partial | refer | deny), approved_amount,
limit, and the violations that explain anything other than a plain approval.
Exit status: 0 for any decision, 2 when the input itself is malformed.
"""
from __future__ import annotations

import json
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

TABLE_PATH = Path(__file__).resolve().parent / "allowance_table.json"
CENT = Decimal("0.01")

# Which input field multiplies a category's limit, by the table's `limit_per` value.
UNIT_FIELDS = {"attendee": "attendees", "night": "nights", "day": "days", "trip": None, "claim": None}


def load_table(path: Path = TABLE_PATH) -> dict:
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def _money(value: object, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{field} must be a number")
    try:
        amount = Decimal(str(value))
    except InvalidOperation as err:
        raise ValueError(f"{field} must be a number") from err
    if not amount.is_finite() or amount <= 0:
        raise ValueError(f"{field} must be greater than 0")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def _count(value: object, field: str) -> int:
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{field} must be a whole number of at least 1")
    return value


def _result(decision: str, category: str, amount: Decimal, approved: Decimal, limit: Decimal | None,
            currency: str, violations: list[dict]) -> dict:
    return {
        "decision": decision,
        "category": category,
        "amount": float(amount),
        "approved_amount": float(approved),
        "limit": None if limit is None else float(limit),
        "currency": currency,
        "violations": violations,
    }


def verify_expense(claim: dict, table: dict | None = None) -> dict:
    """Decide one expense claim. Raises ValueError when the claim is malformed."""
    if not isinstance(claim, dict):
        raise ValueError("input must be a JSON object")
    table = table or load_table()
    currency = table["currency"]
    category = claim.get("category")
    if not isinstance(category, str) or not category:
        raise ValueError("category is required")
    amount = _money(claim.get("amount"), "amount")

    rules = table["categories"].get(category)
    if rules is None:
        known = ", ".join(sorted(table["categories"]))
        return _result("deny", category, amount, Decimal(0), None, currency, [
            {"rule": "unknown-category", "message": f"'{category}' is not a reimbursable category; use one of: {known}"},
        ])

    unit_field = UNIT_FIELDS[rules["limit_per"]]
    units = _count(claim.get(unit_field), unit_field) if unit_field else 1
    limit = (Decimal(str(rules["limit"])) * units).quantize(CENT)

    days = claim.get("days_since_expense", 0)
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ValueError("days_since_expense must be a whole number of at least 0")
    if days > table["submission_window_days"]:
        return _result("deny", category, amount, Decimal(0), limit, currency, [
            {"rule": "submission-window",
             "message": f"submitted {days} days after the expense; the window is {table['submission_window_days']} days"},
        ])

    receipt_over = Decimal(str(rules["receipt_required_over"]))
    if amount > receipt_over and not claim.get("has_receipt", False):
        return _result("deny", category, amount, Decimal(0), limit, currency, [
            {"rule": "receipt-required",
             "message": f"{rules['label']} over {receipt_over:.2f} {currency} need an itemised receipt"},
        ])

    preapproval_over = rules.get("preapproval_required_over")
    if preapproval_over is not None and amount > Decimal(str(preapproval_over)) and not claim.get("preapproved", False):
        return _result("refer", category, amount, Decimal(0), limit, currency, [
            {"rule": "preapproval-required",
             "message": f"{rules['label']} over {Decimal(str(preapproval_over)):.2f} {currency} need manager pre-approval; "
                        "route to the approver before reimbursing"},
        ])

    if amount > limit:
        return _result("partial", category, amount, limit, limit, currency, [
            {"rule": "over-limit",
             "message": f"{amount:.2f} {currency} exceeds the {limit:.2f} {currency} limit "
                        f"({Decimal(str(rules['limit'])):.2f} per {rules['limit_per']} x {units}); "
                        f"{amount - limit:.2f} {currency} is not reimbursed"},
        ])

    return _result("approve", category, amount, amount, limit, currency, [])


def main(argv: list[str]) -> int:
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        result = verify_expense(json.loads(raw))
    except (ValueError, json.JSONDecodeError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
