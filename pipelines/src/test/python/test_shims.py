"""Exercises scripts/openevolve_evaluator.py and scripts/gepa_adapter.py against the real CLI (SERVESIM_BIN), as
OpenEvolve and GEPA call them: openevolve_replay.py and gepa_replay.py replay the frameworks' call sequences, written
from their source at the pinned releases (they cite file and commit); neither framework is installed, and the shims
must not need them. Candidates and workloads are written to CANDIDATE_DIR. Run by io.servesim.cli.ShimsTest; exits 1
on failure."""
import contextlib
import os
import shlex
import sys

sys.path.insert(0, os.environ["SHIMS_DIR"])
import gepa_adapter  # noqa: E402
import openevolve_evaluator  # noqa: E402
import servesim_eval  # noqa: E402

import gepa_replay  # noqa: E402
import openevolve_replay  # noqa: E402

GOOD = "routing: {name: weighted-scoring, params: {load: 2, cache_affinity: 0.5}}\n"
BETTER = "routing: {name: weighted-scoring, params: {load: 1, cache_affinity: 1, queue_depth: 1}}\n"
BAD = "routing: {name: weighted-scoring, params: {load: -1}}\n"
EVALUATOR = os.path.join(os.environ["SHIMS_DIR"], "openevolve_evaluator.py")


def write(name, text):
    path = os.path.join(os.environ["CANDIDATE_DIR"], name)
    with open(path, "w") as f:
        f.write(text)
    return path


def check(cond, what):
    if not cond:
        print("FAILED: " + what)
        sys.exit(1)


@contextlib.contextmanager
def base_args(args):
    """SERVESIM_EVAL_ARGS replaced by `args` (the shims read it at each call)."""
    saved = os.environ["SERVESIM_EVAL_ARGS"]
    os.environ["SERVESIM_EVAL_ARGS"] = args
    try:
        yield
    finally:
        os.environ["SERVESIM_EVAL_ARGS"] = saved


def without(args, *drop):
    """`args` (a shell string) without the given arguments and the value after each."""
    words, out, skip = shlex.split(args), [], False
    for w in words:
        if skip:
            skip = False
        elif w in drop:
            skip = True
        else:
            out.append(w)
    return " ".join(shlex.quote(w) for w in out)


def sized(base, n):
    """The base arguments with the run size set to n requests by --set, as ShimsTest's base sets it."""
    return without(base, "--set") + " --set workload.num_requests=%d" % n


def failing_runs(base):
    """A base on which a 60-request workload runs and a 3000-request one passes max_events (a failed run, exit 1)."""
    small = write("small.yaml", "scenario: chat\narrival: {process: poisson}\nnum_requests: 60\n")
    big = write("big.yaml", "scenario: chat\narrival: {process: poisson}\nnum_requests: 3000\n")
    return without(base, "--set") + " --max-events 20000", small, big


def test_openevolve():
    base = os.environ["SERVESIM_EVAL_ARGS"]
    stage1_n = int(os.environ["SERVESIM_STAGE1_REQUESTS"])
    good = write("good.yaml", GOOD)
    direct = openevolve_evaluator.evaluate(good)
    check(0 < direct.metrics["combined_score"] <= 1, "openevolve combined_score: %r" % (direct,))
    check(all(isinstance(v, (int, float)) or v is None for v in direct.metrics.values()), "metrics are numbers: %r"
          % (direct.metrics,))
    check("routing_concentration" in direct.metrics, "openevolve features")
    check("score regret" in direct.artifacts["decision_trace"], "decision trace artifact: %r" % (direct.artifacts,))

    # OpenEvolve's own evaluation of a program file, cascade and all, with its EvaluationResult type importable
    openevolve_replay.install_openevolve_types()
    try:
        module = openevolve_replay.load(EVALUATOR)
        stage1 = module.evaluate_stage1(good)
        check(isinstance(stage1, openevolve_replay.EvaluationResult), "an EvaluationResult: %r" % (stage1,))
        metrics, artifacts = openevolve_replay.evaluate_program(EVALUATOR, GOOD, ".yaml")
        check("error" not in metrics and metrics["combined_score"] == direct.metrics["combined_score"],
              "the cascade passes stage 1 and keeps stage 2's full evaluation: %r" % (metrics,))
        check("score regret" in artifacts["decision_trace"] and "stage1" in artifacts, "artifacts: %r" % (artifacts,))

        # stage 1 screens on SERVESIM_STAGE1_REQUESTS requests however the base sets the size, and says so
        with base_args(sized(base, stage1_n)):
            screening = module.evaluate(good).metrics
        with base_args(sized(base, 100)):
            full = module.evaluate(good).metrics
        check(screening != full, "the run size changes the metrics, so the comparison below can fail")
        for size_args in ("--set workload.num_requests=100", "--num-requests 100", "--num-requests=100"):
            with base_args(without(base, "--set") + " " + size_args):
                s1 = module.evaluate_stage1(good)
            check(s1.metrics == screening, "stage 1 under '%s' screens on %d requests: %r" % (size_args, stage1_n, s1))
            check(size_args in s1.artifacts["stage1"] and "first %d requests" % stage1_n in s1.artifacts["stage1"],
                  "stage 1 says what it screened on: %r" % (s1.artifacts,))

        # a candidate that does not bind, or whose run fails, scores 0 with the reason, and is not retried
        bad_metrics, bad_artifacts = openevolve_replay.evaluate_program(EVALUATOR, BAD, ".yaml")
        check(bad_metrics == {"combined_score": 0.0} and "routing.params.load" in bad_artifacts["invalid_candidate"],
              "openevolve invalid candidate: %r %r" % (bad_metrics, bad_artifacts))
        failing, _, big = failing_runs(base)
        with base_args(failing + " --workload " + shlex.quote(big)):
            failed_metrics, failed_artifacts = openevolve_replay.evaluate_program(EVALUATOR, GOOD, ".yaml", cascade=False)
        check(failed_metrics == {"combined_score": 0.0} and "max_events" in failed_artifacts["run_failed"],
              "openevolve failed run: %r %r" % (failed_metrics, failed_artifacts))
    finally:
        openevolve_replay.uninstall_openevolve_types()


# The routing example as OpenEvolve's initial program (a .java file): OpenEvolve writes each candidate to a temporary
# tmpXXXX.java, so the file and class names differ.
EXAMPLES = os.path.join(os.environ["SHIMS_DIR"], "..", "sweeps", "policies")
with open(os.path.join(EXAMPLES, "code", "PrefixAwareLeastLoad.java")) as f:
    JAVA = f.read()


def test_openevolve_evolves_code():
    openevolve_replay.install_openevolve_types()
    try:
        metrics, artifacts = openevolve_replay.evaluate_program(EVALUATOR, JAVA, ".java")
        check("error" not in metrics and 0 < metrics["combined_score"] <= 1, "a Java candidate scores: %r" % (metrics,))
        check("routing/code" in artifacts["decision_trace"], "its decisions are the code policy's: %r" % (artifacts,))
        # the same program named by its bundle (sweeps/policies/code-routing.yaml) scores the same
        named = openevolve_evaluator.evaluate(os.path.join(EXAMPLES, "code-routing.yaml"))
        check(named.metrics["combined_score"] == metrics["combined_score"], "as a bundle: %r" % (named.metrics,))
        broken, why = openevolve_replay.evaluate_program(EVALUATOR, JAVA.replace("bestScore = score;", "bestScore = score"),
                                                         ".java")
        check(broken == {"combined_score": 0.0} and ".java:22: ';' expected" in why["invalid_candidate"],
              "a compiler error is the candidate's feedback, with its line: %r" % (why,))
        spy = JAVA.replace("int best = 0;", "long t = System.nanoTime(); int best = 0;")
        refused, why = openevolve_replay.evaluate_program(EVALUATOR, spy, ".java")
        check(refused == {"combined_score": 0.0} and ".java:16: java.lang.System: not allowed in a policy (the clock"
              in why["invalid_candidate"], "a refused reference is the candidate's feedback: %r" % (why,))
        throws = JAVA.replace("return best;", "return best / (instances.count() - instances.count());")
        failed, why = openevolve_replay.evaluate_program(EVALUATOR, throws, ".java")
        check(failed == {"combined_score": 0.0} and "route threw ArithmeticException: / by zero at tmp" in why["run_failed"]
              and ".java:25" in why["run_failed"], "a run the code fails is a failure score with its line: %r" % (why,))
        none, why = openevolve_replay.evaluate_program(EVALUATOR, "public class Nothing { }\n", ".java")
        check(none == {"combined_score": 0.0} and "implements none of the policy interfaces" in why["invalid_candidate"],
              "a program that is no policy: %r" % (why,))
    finally:
        openevolve_replay.uninstall_openevolve_types()


def test_gepa():
    base = os.environ["SERVESIM_EVAL_ARGS"]
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
    # an instance that replaces no seed stands for every run of the base's --seeds: their mean, not the first alone
    with base_args(base + " --seeds 1,2"):
        both = adapter.evaluate([{}], {"policy_config": GOOD}, capture_traces=True)
    check(len(both.scores) == 1 and abs(both.scores[0] - sum(result.scores) / 2) < 1e-12,
          "an instance of two seeds scores their mean: %r, the seeds alone %r" % (both.scores, result.scores))
    check(len(both.outputs[0]["runs"]) == 2 and len(both.trajectories[0]["features"]) == 2, "both runs are reported")
    bad = adapter.evaluate([{"seed": 1}], {"policy_config": BAD}, capture_traces=True)
    check(bad.scores == [0.0], "gepa invalid candidate scores 0")
    feedback = adapter.make_reflective_dataset({"policy_config": BAD}, bad, ["policy_config"])["policy_config"][0]["Feedback"]
    check("routing.params.load" in feedback, "gepa invalid candidate feedback: %r" % feedback)

    # one iteration of gepa.optimize: the reflection LM proposes from the reflective dataset, and the child is scored
    prompts = []

    def reflection_lm(prompt):
        prompts.append(prompt)
        return "Weigh the queues.\n```yaml\n" + BETTER + "```"

    seed = {"policy_config": GOOD}
    run = gepa_replay.optimize_one_iteration(adapter, seed, trainset=batch, valset=[{"seed": 3}],
                                             reflection_lm=reflection_lm)
    check(len(prompts) == 1, "the reflection LM is asked once, got %d; GEPA logged %r" % (len(prompts), run["log"]))
    check(GOOD.strip() in prompts[0] and "score regret" in prompts[0], "the prompt holds the candidate and the trace")
    check(run["child"] == {"policy_config": BETTER.strip()}, "the proposed child: %r" % (run["child"],))
    check(len(run["child_scores"]) == 2 and all(0 < s <= 1 for s in run["child_scores"]),
          "the child is scored on the minibatch: %r" % (run,))
    check(not run["accepted"] or len(run["child_val_scores"]) == 1, "an accepted child is scored on the valset")

    # an instance's seed replaces the base arguments' --seeds: one run, of that seed
    with base_args(base + " --seeds 1,2"):
        own = adapter.evaluate([{"seed": 3}, {"seed": 1}], seed, capture_traces=False)
        check(own.outputs[0]["label"].endswith("@seed=3") and own.outputs[1]["label"].endswith("@seed=1"),
              "the instance's seed, not the base's: %r" % (own.outputs,))

    # a failed run is a failure score with its reason, not an exception that stops GEPA (raise_on_exception)
    failing, small, big = failing_runs(base)
    with base_args(failing):
        mixed = adapter.evaluate([{"workload": small}, {"workload": big}], seed, capture_traces=True)
        check(mixed.scores[0] > 0 and mixed.scores[1] == 0.0, "one run fails, one scores: %r" % (mixed.scores,))
        why = adapter.make_reflective_dataset(seed, mixed, ["policy_config"])["policy_config"][1]["Feedback"]
        check(why.startswith("the run failed: ") and "max_events" in why, "the failure's feedback: %r" % why)
        survived = gepa_replay.optimize_one_iteration(adapter, seed, trainset=[{"workload": big}],
                                                      valset=[{"workload": small}], reflection_lm=reflection_lm)
        check(survived["child"] is not None, "the iteration goes on past a failed run: %r" % (survived["log"],))


def test_failure_messages_leave_warnings_out():
    warned = ("servesim evaluate: warning: fitness key 'ttft_p99' is now ttft_p99_ms\n"
              "servesim evaluate: run failed: max_events 20000 reached at 1.2 s\n")
    check(servesim_eval.error_text(warned) == "servesim evaluate: run failed: max_events 20000 reached at 1.2 s",
          "the reason, not the warning before it: %r" % servesim_eval.error_text(warned))
    only = "servesim evaluate: warning: something\n"
    check(servesim_eval.error_text(only) == only.strip(), "stderr of warnings alone is kept whole")


if __name__ == "__main__":
    check("gepa" not in sys.modules and "openevolve" not in sys.modules, "shims import no framework")
    test_failure_messages_leave_warnings_out()
    test_openevolve()
    test_openevolve_evolves_code()
    test_gepa()
    print("shims ok")
