#!/usr/bin/env python3
"""Decide a customer refund request under the refund policy (references/refund-policy.md).

Usage:
    python3 scripts/refund_decision.py '{"amount": 89.99, "days_since_delivery": 12,
                                         "reason": "changed_mind", "condition": "unopened"}'

Prints one JSON object: decision (full_refund | partial_refund | store_credit | deny | escalate),
refund_amount, and the policy section that applies. Exit status 2 on malformed input.
"""
from __future__ import annotations

import json
import sys
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
RETURN_WINDOW_DAYS = 30
DEFECT_WINDOW_DAYS = 365
RESTOCKING_FEE = Decimal("0.15")
ESCALATE_OVER = Decimal("1000")
REASONS = ("defective", "not_as_described", "changed_mind")
CONDITIONS = ("unopened", "opened", "damaged_by_customer")


def decide_refund(request: dict) -> dict:
    if not isinstance(request, dict):
        raise ValueError("input must be a JSON object")
    amount = request.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or amount <= 0:
        raise ValueError("amount must be a number greater than 0")
    amount = Decimal(str(amount)).quantize(CENT, rounding=ROUND_HALF_UP)
    days = request.get("days_since_delivery")
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ValueError("days_since_delivery must be a whole number of at least 0")
    reason = request.get("reason")
    if reason not in REASONS:
        raise ValueError(f"reason must be one of: {', '.join(REASONS)}")
    condition = request.get("condition", "opened")
    if condition not in CONDITIONS:
        raise ValueError(f"condition must be one of: {', '.join(CONDITIONS)}")

    def result(decision: str, refund: Decimal, section: str, why: str) -> dict:
        return {"decision": decision, "refund_amount": float(refund), "policy_section": section, "reason": why}

    if amount > ESCALATE_OVER:
        return result("escalate", Decimal(0), "4", f"refunds over {ESCALATE_OVER:.0f} are decided by a finance lead")
    if condition == "damaged_by_customer":
        return result("deny", Decimal(0), "3", "items damaged after delivery are not refundable")
    if reason in ("defective", "not_as_described"):
        if days <= DEFECT_WINDOW_DAYS:
            return result("full_refund", amount, "2", "defective or misdescribed items are refunded in full for a year")
        return result("deny", Decimal(0), "2", f"reported {days} days after delivery; the defect window is {DEFECT_WINDOW_DAYS} days")
    if days > RETURN_WINDOW_DAYS:
        return result("store_credit", amount, "1", f"change-of-mind returns after {RETURN_WINDOW_DAYS} days get store credit only")
    if condition == "unopened":
        return result("full_refund", amount, "1", "unopened items returned in time are refunded in full")
    fee = (amount * RESTOCKING_FEE).quantize(CENT, rounding=ROUND_HALF_UP)
    return result("partial_refund", amount - fee, "1", f"opened items carry a {RESTOCKING_FEE * 100:.0f}% restocking fee ({fee:.2f})")


def main(argv: list[str]) -> int:
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        out = decide_refund(json.loads(raw))
    except (ValueError, json.JSONDecodeError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
