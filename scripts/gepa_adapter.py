"""A GEPA adapter for servesim policy candidates: GEPA's GEPAAdapter protocol as gepa-ai/gepa v0.1.4 defines it
(src/gepa/core/adapter.py @ 8b0ce6cd) and its optimize loop calls it.

A candidate is {component: text}; the component (default "policy_config") holds a policy-config YAML with policy
parameters only. A batch is a list of data instances, each a dict with an optional "workload" (a workload YAML path)
and "seed"; each instance is one `servesim evaluate --format gepa` run on top of SERVESIM_EVAL_ARGS (see
servesim_eval.py), its workload and seed replacing the base arguments' --workload and --seeds (an instance that replaces
neither stands for every run the base arguments give, scored their mean). What GEPA calls, in its order:
  evaluate(batch, candidate, capture_traces)  -> EvaluationBatch(outputs, scores, trajectories, objective_scores,
      num_metric_calls): gepa's own class when gepa is importable, else a namedtuple with the same fields and defaults.
      capture_traces=False for the seed's and merges' scores, True for the reflective minibatches and the valset
      (gepa's default_batch_evaluate). A candidate that does not bind, or whose run fails, scores 0.0 on that
      instance with the reason as its output and feedback: the protocol's "never raise for individual example
      failures"; only a systemic failure (a bad base config, no launcher) raises.
  make_reflective_dataset(candidate, eval_batch, components_to_update) -> {component: [{"Inputs", "Generated
      Outputs", "Feedback"}]}, the feedback being each run's fitness, behaviour descriptors and decision-trace summary.
  propose_new_texts: None, the protocol's default: GEPA reads the attribute itself (reflective_mutation.py) and, as
      it is None, asks its reflection LM for the new text from the reflective dataset.
"""
import collections
import os
import tempfile

from servesim_eval import base_args, failure, run_cli, without_flags

_FallbackEvaluationBatch = collections.namedtuple(
    "EvaluationBatch", ["outputs", "scores", "trajectories", "objective_scores", "num_metric_calls"],
    defaults=[None, None, None])


def _evaluation_batch_type():
    try:
        from gepa.core.adapter import EvaluationBatch  # imported lazily: gepa is optional
        return EvaluationBatch
    except ImportError:
        return _FallbackEvaluationBatch


class ServesimAdapter:
    """GEPAAdapter for servesim: evaluate(batch, candidate, capture_traces) and make_reflective_dataset."""

    # GEPA's GEPAAdapter protocol declares it with this default and reads it directly
    # (`adapter.propose_new_texts is not None`): None hands the proposal to GEPA's reflection LM.
    propose_new_texts = None

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
        # an instance's workload and seed replace the base arguments' (evaluate would run --seeds 1,2 --seeds 3 as 1, 2, 3)
        extra, replaced = [], []
        if instance.get("workload"):
            extra += ["--workload", str(instance["workload"])]
            replaced.append("--workload")
        if instance.get("seed") is not None:
            extra += ["--seeds", str(instance["seed"])]
            replaced.append("--seeds")
        result = run_cli(path, "gepa", extra, base=without_flags(base_args(), replaced))
        why = failure(result)
        if why is not None:
            return {"error": why}, 0.0, {"instance": instance, "feedback": why}
        scores = [float(x) for x in result["scores"]]
        if len(scores) == 1:
            trajectory = dict(result["trajectories"][0])
            trajectory["instance"] = instance
            return result["outputs"][0], scores[0], trajectory
        # an instance that replaces neither workload nor seed is every run the base arguments give (--seeds 1,2):
        # its score is their mean, as evaluate's fitness is, and its output and feedback hold each run's
        trajectory = {
            "instance": instance,
            "features": {t["label"]: t["features"] for t in result["trajectories"]},
            "trace_summary": "\n".join(str(t["trace_summary"]) for t in result["trajectories"]),
        }
        return {"runs": result["outputs"]}, sum(scores) / len(scores), trajectory

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
