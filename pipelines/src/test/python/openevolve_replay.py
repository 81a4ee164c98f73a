"""OpenEvolve's calls into an evaluator file, replayed without OpenEvolve (it is not installed here): how
openevolve/evaluator.py of codelion/openevolve v0.2.25 (commit fda1963b4da8a9e0fa07c16d8ba73cefb9e340e8) loads the
file and evaluates one program, with EvaluatorConfig's defaults (openevolve/config.py:336-351: timeout 300 s,
max_retries 3, cascade_evaluation true, cascade_thresholds [0.5, 0.75, 0.9]). Each step cites the lines it follows.

OpenEvolve's EvaluationResult (openevolve/evaluation_result.py) is a dataclass of `metrics` and `artifacts`; the
evaluator accepts a dict or an instance of that class and nothing else (evaluator.py:298-317). `install_openevolve_types`
puts a stand-in with those two fields at that module path, so an evaluator file's lazy import finds it as it would
find OpenEvolve's own, and `isinstance` is checked against it.
"""
import concurrent.futures
import dataclasses
import importlib.util
import os
import sys
import tempfile
import types

TIMEOUT_S = 300
MAX_RETRIES = 3
CASCADE_THRESHOLDS = [0.5, 0.75, 0.9]


@dataclasses.dataclass
class EvaluationResult:
    """The fields of openevolve/evaluation_result.py's EvaluationResult."""
    metrics: dict
    artifacts: dict = dataclasses.field(default_factory=dict)


def install_openevolve_types():
    package = types.ModuleType("openevolve")
    module = types.ModuleType("openevolve.evaluation_result")
    module.EvaluationResult = EvaluationResult
    package.evaluation_result = module
    sys.modules["openevolve"] = package
    sys.modules["openevolve.evaluation_result"] = module


def uninstall_openevolve_types():
    sys.modules.pop("openevolve.evaluation_result", None)
    sys.modules.pop("openevolve", None)


def load(evaluation_file):
    """evaluator.py:67-95 (and 372-386 for each cascade): the file's directory joins sys.path, the file is executed
    as module "evaluation_module", and it must define evaluate."""
    eval_dir = os.path.dirname(os.path.abspath(evaluation_file))
    if eval_dir not in sys.path:
        sys.path.insert(0, eval_dir)
    spec = importlib.util.spec_from_file_location("evaluation_module", evaluation_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "evaluate"):
        raise AttributeError("Evaluation file %s does not contain an 'evaluate' function" % evaluation_file)
    return module


def _with_timeout(fn, path):
    # evaluator.py:354, 398, 439: the call runs in an executor under asyncio.wait_for(timeout=config.timeout)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, path).result(timeout=TIMEOUT_S)


def _process(result):
    """evaluator.py:298-317."""
    if isinstance(result, dict):
        return EvaluationResult(metrics=result)
    if isinstance(result, EvaluationResult):
        return result
    return EvaluationResult(metrics={"error": 0.0})


def _passes_threshold(metrics, threshold):
    """evaluator.py:668-707: combined_score when present, else the mean of the numeric metrics but 'error'."""
    if not metrics:
        return False
    score = metrics.get("combined_score")
    if isinstance(score, (int, float)):
        return float(score) >= threshold
    values = [float(v) for k, v in metrics.items() if k != "error" and isinstance(v, (int, float))]
    return bool(values) and sum(values) / len(values) >= threshold


def _numeric(metrics):
    # evaluator.py:466-475: the merge keeps numeric metrics but 'error', as floats
    return {k: float(v) for k, v in metrics.items() if isinstance(v, (int, float)) and k != "error"}


def _cascade(evaluation_file, path):
    """evaluator.py:360-546, stages 1 and 2 (the shims define no stage 3)."""
    module = load(evaluation_file)
    if not hasattr(module, "evaluate_stage1"):
        return _with_timeout(module.evaluate, path)
    try:
        stage1 = _process(_with_timeout(module.evaluate_stage1, path))
    except concurrent.futures.TimeoutError:
        return EvaluationResult({"stage1_passed": 0.0, "error": 0.0, "timeout": True},
                                {"failure_stage": "stage1", "timeout": True})
    except Exception as e:
        return EvaluationResult({"stage1_passed": 0.0, "error": 0.0}, {"stderr": str(e), "failure_stage": "stage1"})
    if not _passes_threshold(stage1.metrics, CASCADE_THRESHOLDS[0]) or not hasattr(module, "evaluate_stage2"):
        return stage1
    try:
        stage2 = _process(_with_timeout(module.evaluate_stage2, path))
    except Exception as e:
        stage1.artifacts.update({"stage2_stderr": str(e), "failure_stage": "stage2"})
        stage1.metrics["stage2_passed"] = 0.0
        return stage1
    merged = _numeric(stage1.metrics)
    merged.update(_numeric(stage2.metrics))
    artifacts = dict(stage1.artifacts)
    artifacts.update(stage2.artifacts)
    return EvaluationResult(merged, artifacts)


def evaluate_program(evaluation_file, program_code, suffix, cascade=True):
    """evaluator.py:132-296: the program written to a temporary file with the initial program's suffix
    (controller.py:150-157), evaluated directly or by cascade, retried on an exception (max_retries), each attempt's
    file deleted. Returns (metrics, artifacts) as OpenEvolve stores them for the program (evaluator.py:220-250: the
    artifacts only of an EvaluationResult)."""
    artifacts = {}
    for attempt in range(MAX_RETRIES + 1):
        with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as f:
            f.write(program_code.encode("utf-8"))
            path = f.name
        try:
            if cascade:
                result = _cascade(evaluation_file, path)
            else:
                result = _with_timeout(load(evaluation_file).evaluate, path)
            processed = _process(result)
            artifacts.update(processed.artifacts)
            return processed.metrics, artifacts
        except concurrent.futures.TimeoutError:
            return {"error": 0.0, "timeout": True}, {"timeout": True, "failure_stage": "evaluation"}
        except Exception as e:
            artifacts = {"stderr": str(e), "failure_stage": "evaluation", "attempt": attempt + 1}
        finally:
            if os.path.exists(path):
                os.unlink(path)
    return {"error": 0.0}, artifacts
