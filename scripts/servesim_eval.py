"""Calls `servesim evaluate` and returns its one JSON object (shared by the framework shims).

Configuration, read at call time (never at import):
  SERVESIM_BIN        the launcher (default: scripts/servesim beside this file)
  SERVESIM_EVAL_ARGS  base arguments, shell-quoted, e.g.
                      "-c sweeps/configs/llama8b-h100.yaml --fitness-weights throughput_rps:0.5,ttft_p99_ms:0.5 --seeds 1,2"

What comes back, by the evaluator's exit code:
  0                           the evaluation (the format asked for)
  2 with a JSON object        an invalid candidate: {"error": "invalid_candidate", "problems": [{"path", "message"}]}
  1                           the candidate's run failed (a code policy threw or overran its call budget, a run
                              passed max_events, ...): {"error": "run_failed", "message": <servesim's error line>}
Anything else (a bad base config or flag, exit 2 without JSON; no launcher) is not the candidate's doing: it raises,
as GEPA and OpenEvolve reserve exceptions for systemic failures.
"""
import json
import os
import shlex
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

# The base arguments that set how many requests a run has: --num-requests, and --set of the two keys it stands for
# (workload.num_requests; workload.trace.max_requests for a trace replay). --set is applied after the flags.
_SIZE_FLAG = "--num-requests"
_SIZE_KEYS = ("workload.num_requests", "workload.trace.max_requests")


def base_args():
    """SERVESIM_EVAL_ARGS as a list."""
    return shlex.split(os.environ.get("SERVESIM_EVAL_ARGS", ""))


def without_size(args):
    """(args without the arguments that set the number of requests, the arguments dropped)."""
    kept, dropped = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == _SIZE_FLAG and i + 1 < len(args):
            dropped += args[i:i + 2]
            i += 2
            continue
        if a.startswith(_SIZE_FLAG + "="):
            dropped.append(a)
            i += 1
            continue
        if a == "--set" and i + 1 < len(args) and _sets_size(args[i + 1]):
            dropped += args[i:i + 2]
            i += 2
            continue
        if a.startswith("--set=") and _sets_size(a[len("--set="):]):
            dropped.append(a)
            i += 1
            continue
        kept.append(a)
        i += 1
    return kept, dropped


def without_flags(args, flags):
    """args without each of `flags` (e.g. "--seeds") and its value, in either "--flag value" or "--flag=value" form."""
    kept = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in flags and i + 1 < len(args):
            i += 2
            continue
        if any(a.startswith(f + "=") for f in flags):
            i += 1
            continue
        kept.append(a)
        i += 1
    return kept


def _sets_size(assignment):
    return assignment.split("=", 1)[0].strip() in _SIZE_KEYS


def run_cli(candidate_path, fmt, extra_args=(), base=None):
    """Runs the evaluator on one candidate file (on `base`, default SERVESIM_EVAL_ARGS); returns the JSON object."""
    binary = os.environ.get("SERVESIM_BIN", os.path.join(HERE, "servesim"))
    args = [binary, "evaluate", "--policy-config", str(candidate_path), "--format", fmt]
    args += (base_args() if base is None else list(base)) + list(extra_args)
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode == 0 or (proc.returncode == 2 and proc.stdout.strip().startswith("{")):
        return json.loads(proc.stdout)
    if proc.returncode == 1:
        return {"error": "run_failed", "candidate": str(candidate_path), "message": error_text(proc.stderr)}
    raise RuntimeError("servesim evaluate exited %d: %s" % (proc.returncode, error_text(proc.stderr)))


def error_text(stderr):
    """The error lines of the evaluator's stderr, without its warnings (a renamed key, a cost left null), which come
    first and would bury the reason; all of it when it holds nothing else."""
    lines = stderr.strip().splitlines()
    errors = [line for line in lines if ": warning: " not in line]
    return "\n".join(errors or lines)


def failure(result):
    """Why a result scores nothing, as feedback for the search ('invalid candidate: path: message; ...' or
    'the run failed: ...'); None for an evaluation."""
    if result.get("error") == "invalid_candidate":
        return "invalid candidate: " + "; ".join("%s: %s" % (p["path"], p["message"]) for p in result.get("problems", []))
    if result.get("error") == "run_failed":
        return "the run failed: " + result["message"]
    return None
