"""OpenEvolve evaluator file for servesim policy candidates, to OpenEvolve's evaluator contract as codelion/openevolve
v0.2.25 (@ fda1963b) calls it: openevolve/evaluator.py loads this file, writes each candidate program to a temporary
file with the initial program's suffix and calls evaluate(program_path), or with cascade_evaluation (its default)
evaluate_stage1, then evaluate_stage2 when stage 1's combined_score reaches cascade_thresholds[0].

Each returns an EvaluationResult(metrics, artifacts): openevolve's own class (openevolve/evaluation_result.py) when
openevolve is importable, as it is when OpenEvolve runs this file, else a namedtuple with the same fields. metrics are
`servesim evaluate --format openevolve`'s numbers: combined_score (= fitness), the behaviour descriptors
(routing_concentration, rejection_rate, preemption_pressure, prefix_hit_rate; name them in feature_dimensions) and
every numeric metric of servesim's metric catalog by its name (docs/metrics-reference.md); artifacts carry the decision-trace summary of each run (decision_trace), which OpenEvolve shows
in the next prompt (prompt.include_artifacts). A candidate that does not bind, or whose run fails, scores
combined_score 0.0 with the reason as an artifact (invalid_candidate or run_failed), so evolution moves on.

The evolved program is either a policy-config YAML (policy parameters) or a Java policy (a .java initial program,
so OpenEvolve writes each candidate with that suffix): one public class implementing a kind's interface of
io.servesim.policy.api, evaluated as that kind's code policy ({kind: {name: code, params: {source: PROGRAM}}}, the
kind read from the interface the source implements). A Java candidate that does not compile, or uses what a policy may
not, scores 0 with servesim's message and line as its invalid_candidate artifact. Cascade stage 1 screens on the first
SERVESIM_STAGE1_REQUESTS requests (default 100) whatever SERVESIM_EVAL_ARGS says about the size (its --num-requests
or --set workload.num_requests / workload.trace.max_requests are dropped for the stage, and the stage1 artifact says
so); stage 2 is the full evaluation.
"""
import collections
import json
import os
import re
import tempfile

from servesim_eval import base_args, failure, run_cli, without_size

_FallbackEvaluationResult = collections.namedtuple("EvaluationResult", ["metrics", "artifacts"])

# io.servesim.policy.api's interface of each policy kind, by the kind's key in a policy config
_KINDS = {"admission": "AdmissionPolicy", "priority": "PriorityPolicy", "routing": "RoutingPolicy",
          "scheduler": "SchedulingPolicy", "autoscale": "AutoscalePolicy"}


def _result(metrics, artifacts):
    try:
        from openevolve.evaluation_result import EvaluationResult  # imported lazily: openevolve is optional
    except ImportError:
        EvaluationResult = _FallbackEvaluationResult
    return EvaluationResult(metrics=metrics, artifacts=artifacts)


def _java_kinds(source):
    """The policy kinds whose interface the Java source implements (an implements clause naming it)."""
    return [k for k, iface in _KINDS.items() if re.search(r"\bimplements\b[^{]*\b%s\b" % iface, source)]


def _evaluate(program_path, extra_args=(), base=None, note=None):
    artifacts = {} if note is None else {"stage1": note}
    if not program_path.endswith(".java"):
        return _run(program_path, extra_args, base, artifacts)
    with open(program_path, encoding="utf-8") as f:
        kinds = _java_kinds(f.read())
    if len(kinds) != 1:
        artifacts["invalid_candidate"] = "the program implements %s of the policy interfaces (%s): a policy is one" \
            " public class implementing exactly one of them" % ("none" if not kinds else " and ".join(_KINDS[k] for k in kinds),
                                                       ", ".join(_KINDS.values()))
        return _result({"combined_score": 0.0}, artifacts)
    fd, bundle = tempfile.mkstemp(suffix=".yaml", prefix="candidate-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write("%s: {name: code, params: {source: %s}}\n" % (kinds[0], json.dumps(os.path.abspath(program_path))))
        return _run(bundle, extra_args, base, artifacts)
    finally:
        os.unlink(bundle)


def _run(candidate, extra_args, base, artifacts):
    result = run_cli(candidate, "openevolve", extra_args, base)
    why = failure(result)
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
