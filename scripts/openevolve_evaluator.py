"""OpenEvolve evaluator file for servesim policy candidates, to OpenEvolve's evaluator contract as codelion/openevolve
v0.2.25 (@ fda1963b) calls it: openevolve/evaluator.py loads this file, writes each candidate program to a temporary
file with the initial program's suffix and calls evaluate(program_path), or with cascade_evaluation (its default)
evaluate_stage1, then evaluate_stage2 when stage 1's combined_score reaches cascade_thresholds[0].

Each returns an EvaluationResult(metrics, artifacts): openevolve's own class (openevolve/evaluation_result.py) when
openevolve is importable, as it is when OpenEvolve runs this file, else a namedtuple with the same fields. metrics are
`servesim evaluate --format openevolve`'s numbers: combined_score (= fitness), the behaviour descriptors
(routing_concentration, rejection_rate, preemption_pressure, cache_hit_rate; name them in feature_dimensions) and
headline latencies; artifacts carry the decision-trace summary of each run (decision_trace), which OpenEvolve shows
in the next prompt (prompt.include_artifacts). A candidate that does not bind, or whose run fails, scores
combined_score 0.0 with the reason as an artifact (invalid_candidate or run_failed), so evolution moves on.

The evolved program is a policy-config YAML (policy parameters only). Cascade stage 1 screens on the first
SERVESIM_STAGE1_REQUESTS requests (default 100) whatever SERVESIM_EVAL_ARGS says about the size (its --num-requests
or --set workload.num_requests / workload.trace.max_requests are dropped for the stage, and the stage1 artifact says
so); stage 2 is the full evaluation.
"""
import collections
import os

from servesim_eval import base_args, failure, run_cli, without_size

_FallbackEvaluationResult = collections.namedtuple("EvaluationResult", ["metrics", "artifacts"])


def _result(metrics, artifacts):
    try:
        from openevolve.evaluation_result import EvaluationResult  # imported lazily: openevolve is optional
    except ImportError:
        EvaluationResult = _FallbackEvaluationResult
    return EvaluationResult(metrics=metrics, artifacts=artifacts)


def _evaluate(program_path, extra_args=(), base=None, note=None):
    result = run_cli(program_path, "openevolve", extra_args, base)
    why = failure(result)
    artifacts = {} if note is None else {"stage1": note}
    if why is not None:
        artifacts[result["error"]] = why
        return _result({"combined_score": 0.0}, artifacts)
    artifacts.update(result["artifacts"])
    return _result(result["metrics"], artifacts)


def evaluate(program_path):
    """OpenEvolve's evaluator entry point: the candidate's metrics and its decision traces."""
    return _evaluate(program_path)


def evaluate_stage1(program_path):
    """Cascade stage 1: the same on the first SERVESIM_STAGE1_REQUESTS requests of each run."""
    requests = os.environ.get("SERVESIM_STAGE1_REQUESTS", "100")
    base, dropped = without_size(base_args())
    note = "screened on the first %s requests of each run (SERVESIM_STAGE1_REQUESTS)" % requests
    if dropped:
        note += "; for this stage SERVESIM_EVAL_ARGS's %s does not apply" % " ".join(dropped)
    return _evaluate(program_path, ["--num-requests", requests], base, note)


def evaluate_stage2(program_path):
    """Cascade stage 2: the full evaluation."""
    return evaluate(program_path)
