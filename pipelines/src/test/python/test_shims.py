"""Exercises scripts/openevolve_evaluator.py and scripts/gepa_adapter.py against the real CLI
(SERVESIM_BIN), with fake candidates written to CANDIDATE_DIR. Neither gepa nor openevolve is
installed: the shims must work without them. Run by io.servesim.cli.ShimsTest; exits 1 on failure."""
import os
import sys

sys.path.insert(0, os.environ["SHIMS_DIR"])
import gepa_adapter  # noqa: E402
import openevolve_evaluator  # noqa: E402

GOOD = "routing: {name: weighted-scoring, params: {load: 2, cache_affinity: 0.5}}\n"
BAD = "routing: {name: weighted-scoring, params: {load: -1}}\n"


def write(name, text):
    path = os.path.join(os.environ["CANDIDATE_DIR"], name)
    with open(path, "w") as f:
        f.write(text)
    return path


def check(cond, what):
    if not cond:
        print("FAILED: " + what)
        sys.exit(1)


def test_openevolve():
    m = openevolve_evaluator.evaluate(write("good.yaml", GOOD))
    check(isinstance(m, dict) and 0 < m["combined_score"] <= 1, "openevolve combined_score: %r" % m)
    check(all(isinstance(v, (int, float)) or v is None for v in m.values()), "openevolve values are numbers: %r" % m)
    check("routing_concentration" in m, "openevolve features")
    s1 = openevolve_evaluator.evaluate_stage1(write("good.yaml", GOOD))
    check("combined_score" in s1, "stage 1: %r" % s1)
    bad = openevolve_evaluator.evaluate(write("bad.yaml", BAD))
    check(bad["combined_score"] == 0.0 and "routing.params.load" in bad["error"], "openevolve invalid candidate: %r" % bad)


def test_gepa():
    adapter = gepa_adapter.ServesimAdapter()
    batch = [{"seed": 1}, {"seed": 2}]
    result = adapter.evaluate(batch, {"policy_config": GOOD}, capture_traces=True)
    check(len(result.outputs) == 2 and len(result.scores) == 2 and len(result.trajectories) == 2, "gepa batch sizes")
    check(all(0 < s <= 1 for s in result.scores), "gepa scores: %r" % result.scores)
    check(result.outputs[0]["label"].endswith("@seed=1"), "gepa output label: %r" % result.outputs[0])
    untraced = adapter.evaluate(batch[:1], {"policy_config": GOOD}, capture_traces=False)
    check(untraced.trajectories is None, "no trajectories without capture_traces")
    data = adapter.make_reflective_dataset({"policy_config": GOOD}, result, ["policy_config"])
    records = data["policy_config"]
    check(len(records) == 2, "one reflective record per instance")
    check(set(records[0]) == {"Inputs", "Generated Outputs", "Feedback"}, "reflective record keys: %r" % records[0])
    check("score regret" in records[0]["Feedback"] and records[1]["Inputs"] == {"seed": 2}, "feedback: %r" % records[0])
    bad = adapter.evaluate([{"seed": 1}], {"policy_config": BAD}, capture_traces=True)
    check(bad.scores == [0.0], "gepa invalid candidate scores 0")
    feedback = adapter.make_reflective_dataset({"policy_config": BAD}, bad, ["policy_config"])["policy_config"][0]["Feedback"]
    check("routing.params.load" in feedback, "gepa invalid candidate feedback: %r" % feedback)


if __name__ == "__main__":
    check("gepa" not in sys.modules and "openevolve" not in sys.modules, "shims import no framework")
    test_openevolve()
    test_gepa()
    print("shims ok")
