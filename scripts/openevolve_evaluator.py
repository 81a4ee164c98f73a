"""OpenEvolve evaluator file for servesim policy candidates.

OpenEvolve loads this file and calls evaluate(program_path) -> dict of metrics, with
"combined_score" the primary one (OpenEvolve examples/README.md). The evolved "program" is a
policy-config YAML (policy parameters only). The dict is `servesim evaluate --format openevolve`'s:
combined_score (= fitness), the behaviour descriptors (routing_concentration, rejection_rate,
preemption_pressure, prefix_hit_rate; name them in feature_dimensions) and every numeric metric of
servesim's metric catalog by its name (docs/metrics-reference.md).
An invalid candidate scores 0.0 with an "error" string naming the bad config paths, as OpenEvolve's
examples do, so evolution continues. Cascade evaluation (cascade_evaluation: true):
evaluate_stage1 screens on SERVESIM_STAGE1_REQUESTS requests (default 100), evaluate_stage2 is
the full evaluation. Nothing from openevolve is imported.
"""
import os

from servesim_eval import describe_problems, run_cli


def _metrics(program_path, extra_args=()):
    result = run_cli(program_path, "openevolve", extra_args)
    if "error" in result:
        return {"combined_score": 0.0, "error": describe_problems(result)}
    return result


def evaluate(program_path):
    """OpenEvolve's evaluator entry point: the candidate's metrics."""
    return _metrics(program_path)


def evaluate_stage1(program_path):
    """Cascade stage 1: the same metrics on a short run (SERVESIM_STAGE1_REQUESTS requests)."""
    return _metrics(program_path, ["--num-requests", os.environ.get("SERVESIM_STAGE1_REQUESTS", "100")])


def evaluate_stage2(program_path):
    """Cascade stage 2: the full evaluation."""
    return evaluate(program_path)
