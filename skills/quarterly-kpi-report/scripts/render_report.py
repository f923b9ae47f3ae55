#!/usr/bin/env python3
"""Compute quarterly KPIs and render them with assets/templates/report.md.

Usage:
    python3 scripts/render_report.py '{"company": "Acme", "quarter": "2026-Q1", "metrics": {...}}'

Prints JSON: {"kpis": {...}, "markdown": "..."}. The report references the logo as
`logo.png`; copy assets/images/logo.png next to the rendered report. Exit status 2 on bad input.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from string import Template

SKILL_DIR = Path(__file__).resolve().parent.parent
TEMPLATE_PATH = SKILL_DIR / "assets" / "templates" / "report.md"
REQUIRED = ("revenue", "revenue_prev", "gross_profit", "customers_start", "new_customers", "churned_customers")


def compute_kpis(metrics: dict) -> dict:
    for key in REQUIRED:
        value = metrics.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"metrics.{key} must be a number of at least 0")
    if metrics["revenue"] == 0 or metrics["revenue_prev"] == 0 or metrics["customers_start"] == 0:
        raise ValueError("revenue, revenue_prev and customers_start must be greater than 0")
    return {
        "revenue": metrics["revenue"],
        "revenue_growth_pct": round((metrics["revenue"] / metrics["revenue_prev"] - 1) * 100, 1),
        "gross_margin_pct": round(metrics["gross_profit"] / metrics["revenue"] * 100, 1),
        "churn_rate_pct": round(metrics["churned_customers"] / metrics["customers_start"] * 100, 1),
        "customers_end": metrics["customers_start"] + metrics["new_customers"] - metrics["churned_customers"],
        "new_customers": metrics["new_customers"],
    }


def render_report(request: dict) -> dict:
    if not isinstance(request, dict) or not isinstance(request.get("metrics"), dict):
        raise ValueError("input must be an object with company, quarter and metrics")
    kpis = compute_kpis(request["metrics"])
    growth = kpis["revenue_growth_pct"]
    summary = (f"Revenue {'grew' if growth >= 0 else 'fell'} {abs(growth)}% on the previous quarter "
               f"with a gross margin of {kpis['gross_margin_pct']}%. "
               f"{kpis['new_customers']} customers joined and churn was {kpis['churn_rate_pct']}%.")
    template = Template(TEMPLATE_PATH.read_text(encoding="utf-8"))
    markdown = template.substitute(
        company=request.get("company", "Company"),
        quarter=request.get("quarter", ""),
        revenue=f"{kpis['revenue']:,.0f}",
        revenue_growth=f"{growth:+.1f}%",
        gross_margin=f"{kpis['gross_margin_pct']}%",
        new_customers=kpis["new_customers"],
        churn_rate=f"{kpis['churn_rate_pct']}%",
        customers_end=kpis["customers_end"],
        summary=summary,
    )
    return {"kpis": kpis, "markdown": markdown}


def main(argv: list[str]) -> int:
    raw = argv[1] if len(argv) > 1 else sys.stdin.read()
    try:
        out = render_report(json.loads(raw))
    except (ValueError, json.JSONDecodeError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
