"""Calls `servesim evaluate` and returns its one JSON object (shared by the framework shims).

Configuration, read at call time (never at import):
  SERVESIM_BIN        the launcher (default: scripts/servesim beside this file)
  SERVESIM_EVAL_ARGS  base arguments, shell-quoted, e.g.
                      "-c sweeps/configs/llama8b-h100.yaml --fitness-weights throughput_rps:0.5,ttft_p99_ms:0.5 --seeds 1,2"

Exit 0 prints an evaluation; exit 2 with a JSON object on stdout is an invalid candidate
({"error": "invalid_candidate", "problems": [{"path", "message"}]}); anything else raises.
"""
import json
import os
import shlex
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def run_cli(candidate_path, fmt, extra_args=()):
    """Runs the evaluator on one candidate file; returns the parsed JSON object."""
    binary = os.environ.get("SERVESIM_BIN", os.path.join(HERE, "servesim"))
    args = [binary, "evaluate", "--policy-config", str(candidate_path), "--format", fmt]
    args += shlex.split(os.environ.get("SERVESIM_EVAL_ARGS", "")) + list(extra_args)
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode == 0 or (proc.returncode == 2 and proc.stdout.strip().startswith("{")):
        return json.loads(proc.stdout)
    raise RuntimeError("servesim evaluate exited %d: %s" % (proc.returncode, proc.stderr.strip()))


def describe_problems(result):
    """One line per problem of an invalid-candidate answer: 'path: message'."""
    return "; ".join("%s: %s" % (p["path"], p["message"]) for p in result.get("problems", []))
