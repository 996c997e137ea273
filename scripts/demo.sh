#!/usr/bin/env bash
# The main job, offline: validate, import and grade the bundled seasons with the reference baseline,
# grade the demo with the mock panel (scripted judges over local fakes, labelled MOCK), re-score under a
# weights-only rubric variant (no judge calls), verify the manifests, and write the agreement reports.
set -euo pipefail
G=".venv/bin/grader"
OUT="out/reports"
mkdir -p "$OUT"

echo "== Demo season (synthetic decisions on real 2022 closes)"
$G validate seasons/demo-2022q1
$G import seasons/demo-2022q1
$G grade seasons/demo-2022q1 --rubric v0.4 --panel reference --run-id demo-reference --quiet
$G verify --run demo-reference
$G report --run demo-reference --out "$OUT/demo-reference"

echo "== Mock panel (scripted judges behind local fake OpenAI/Anthropic/xAI servers; never official)"
$G grade seasons/demo-2022q1 --rubric v0.4 --panel mock --run-id demo-mock --quiet
echo "== Can a judge tell who wrote this? Each mock judge guesses the author family of 60 anonymized decisions (recognition planted for mock-openai)"
$G probe-judges --run demo-mock
$G report --run demo-mock --out "$OUT/demo-mock"
$G leaderboard --run demo-mock

echo "== Re-grade under rubric v0.5 through the providers' batch APIs (mock panel: its fakes speak OpenAI Batch, Anthropic Message Batches and xAI Batch; a real panel's batches are followed with grader batch status|collect)"
$G grade seasons/demo-2022q1 --rubric v0.5 --panel mock --run-id demo-mock-v05-batch --batch --quiet
$G batch status --run demo-mock-v05-batch

echo "== Calibration set: 20 reference items of 2 consecutive decisions drawn from the mock run, graded by the same mock panel"
$G calibration sample --run demo-mock --n 20 --window 2 --seed 0 --set-id demo-mock-cal20 --out out/calibration/demo-mock-cal20
$G calibration grade --set demo-mock-cal20 --quiet
$G report --run demo-mock-cal20-mock --out "$OUT/demo-mock-cal20-mock"

echo "== Self-preference and self-consistency audits on a 12-contestant synthetic season (mock panel, 3 repeats; +10 planted for the OpenAI-family judge)"
.venv/bin/python -m grader.demo synthetic --out out/seasons/synthetic-12x15 --contestants 12 --days 15 --seed 1
$G grade out/seasons/synthetic-12x15 --rubric v0.4 --panel mock --run-id synthetic-12x15-mock --repeats 3 --quiet
$G report --run synthetic-12x15-mock --out "$OUT/synthetic-12x15-mock"
grep -A 6 "^| Judge | Family" "$OUT/synthetic-12x15-mock/report.md" || true
grep -m1 "flagged as self-preference" "$OUT/synthetic-12x15-mock/report.md" || true

echo "== Re-score under a weights-only rubric variant (no judge calls)"
$G rubric diff v0.4 rubric/examples/v0.4-evidence-heavy.yaml --run demo-mock
$G rescore --run demo-mock --rubric rubric/examples/v0.4-evidence-heavy.yaml

echo "== Real LLM decisions: CapitalBench weekly rounds, June 2026 (CC BY 4.0, Ishtiaq Rahman)"
$G validate seasons/cb-2026-06-1w
$G grade seasons/cb-2026-06-1w --rubric v0.4 --panel reference --run-id cb-2026-06-1w-reference --quiet
$G verify --run cb-2026-06-1w-reference
$G report --run cb-2026-06-1w-reference --out "$OUT/cb-2026-06-1w-reference"
echo "== What a re-grade of that season by the frontier panel would cost (dry run: nothing sent; batch and cache prices beside)"
$G grade seasons/cb-2026-06-1w --rubric v0.4 --panel frontier --run-id cb-2026-06-1w-frontier-estimate --run-type dry-run --quiet | tail -n 12
echo "== Claims the verifier contradicted in those real rationales (each with the values that decide it)"
$G ledger --run cb-2026-06-1w-reference --status contradicted --limit 5

echo
echo "Reports written under $OUT/ (open report.html in a browser). Database: ${GRADER_DATABASE_URL:-sqlite:///grader.db}"
