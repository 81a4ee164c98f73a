"""A GEPA adapter for servesim policy candidates (GEPA's GEPAAdapter protocol, gepa core/adapter.py).

A candidate is {component: text}; the component (default "policy_config") holds a policy-config
YAML with policy parameters only. A batch is a list of data instances, each a dict with an optional
"workload" (a workload YAML path) and "seed"; each instance is one `servesim evaluate --format gepa`
run on top of SERVESIM_EVAL_ARGS (see servesim_eval.py). evaluate returns an EvaluationBatch
(outputs, scores, trajectories): gepa's own class when gepa is importable, else a namedtuple with the
same fields. make_reflective_dataset turns the trajectories (decision-trace summaries) into GEPA's
{"Inputs", "Generated Outputs", "Feedback"} records. An invalid candidate scores 0.0 on every instance
with the bad config paths as feedback.
"""
import collections
import os
import tempfile

from servesim_eval import describe_problems, run_cli

_FallbackEvaluationBatch = collections.namedtuple("EvaluationBatch", ["outputs", "scores", "trajectories"])


def _evaluation_batch_type():
    try:
        from gepa.core.adapter import EvaluationBatch  # imported lazily: gepa is optional
        return EvaluationBatch
    except ImportError:
        return _FallbackEvaluationBatch


class ServesimAdapter:
    """GEPAAdapter for servesim: evaluate(batch, candidate, capture_traces) and make_reflective_dataset."""

    def __init__(self, component="policy_config"):
        self.component = component

    def evaluate(self, batch, candidate, capture_traces=False):
        fd, path = tempfile.mkstemp(suffix=".yaml", prefix="candidate-")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(candidate[self.component])
            outputs, scores, trajectories = [], [], []
            for instance in batch:
                output, score, trajectory = self._run(path, instance or {})
                outputs.append(output)
                scores.append(score)
                trajectories.append(trajectory)
        finally:
            os.unlink(path)
        return _evaluation_batch_type()(outputs=outputs, scores=scores,
                                        trajectories=trajectories if capture_traces else None)

    def _run(self, path, instance):
        extra = []
        if instance.get("workload"):
            extra += ["--workload", str(instance["workload"])]
        if instance.get("seed") is not None:
            extra += ["--seeds", str(instance["seed"])]
        result = run_cli(path, "gepa", extra)
        if "error" in result:
            feedback = "invalid candidate: " + describe_problems(result)
            return {"error": feedback}, 0.0, {"instance": instance, "feedback": feedback}
        trajectory = dict(result["trajectories"][0])
        trajectory["instance"] = instance
        return result["outputs"][0], float(result["scores"][0]), trajectory

    def make_reflective_dataset(self, candidate, eval_batch, components_to_update):
        records = []
        for output, score, trajectory in zip(eval_batch.outputs, eval_batch.scores, eval_batch.trajectories or []):
            if "feedback" in trajectory:
                feedback = trajectory["feedback"]
            else:
                feedback = "fitness %.4f (higher is better)\nfeatures: %s\n%s" % (
                    score, trajectory["features"], trajectory["trace_summary"])
            records.append({
                "Inputs": trajectory["instance"],
                "Generated Outputs": output,
                "Feedback": feedback,
            })
        return {component: records for component in components_to_update}
